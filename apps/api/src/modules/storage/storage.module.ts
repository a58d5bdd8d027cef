import { defineProduct } from '../products/define-product.ts';
import { storageProduct } from './storage.product.ts';
import { seedStorageServer } from './storage.seed.ts';
import { storageRoutes } from './storage.routes.ts';
import { applyStorageRenewalJob, deleteExpiredStorageJob, provisionStorageJob, storageTermsSchedule, suspendStorageJob } from './storage-lifecycle.ts';

export const storageModule = defineProduct({
  name: 'storage',
  product: storageProduct,
  seed: seedStorageServer,
  routes: [storageRoutes],
  jobs: [provisionStorageJob, applyStorageRenewalJob, suspendStorageJob, deleteExpiredStorageJob],
  schedules: [storageTermsSchedule],
});
