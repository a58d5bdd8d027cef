import { defineModule } from '../../jobs/define.ts';
import { storageRoutes } from './storage.routes.ts';
import { applyStorageRenewalJob, deleteExpiredStorageJob, provisionStorageJob, storageTermsSchedule, suspendStorageJob } from './storage-lifecycle.ts';

export const storageModule = defineModule({
  name: 'storage',
  routes: [storageRoutes],
  jobs: [provisionStorageJob, applyStorageRenewalJob, suspendStorageJob, deleteExpiredStorageJob],
  schedules: [storageTermsSchedule],
});
