import { defineModule } from '../../jobs/define.ts';
import { hostingRoutes } from './hosting.routes.ts';
import { simulatedPanelRoutes } from './simulated-panel.page.ts';
import { deleteExpiredHostingJob, hostingTermsSchedule, provisionHostingJob, suspendHostingJob, unsuspendHostingJob } from './hosting-lifecycle.ts';

export const hostingModule = defineModule({
  name: 'hosting',
  routes: [hostingRoutes, simulatedPanelRoutes],
  jobs: [provisionHostingJob, unsuspendHostingJob, suspendHostingJob, deleteExpiredHostingJob],
  schedules: [hostingTermsSchedule],
});
