import { defineModule } from '../../jobs/define.ts';
import { serverRoutes } from './servers.routes.ts';
import { softwareJob } from './software.service.ts';
import { reinstallJob } from './settings.service.ts';
import { applyUpgradeJob } from './resize.ts';
import { deleteExpiredServerJob, serverTermsSchedule, suspendServerJob } from './server-terms.ts';
import { settleTasksSchedule } from './task-settler.ts';

export const serversModule = defineModule({
  name: 'servers',
  routes: [serverRoutes],
  jobs: [softwareJob, reinstallJob, applyUpgradeJob, suspendServerJob, deleteExpiredServerJob],
  schedules: [settleTasksSchedule, serverTermsSchedule],
});
