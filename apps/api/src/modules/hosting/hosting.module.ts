import { defineProduct } from '../products/define-product.ts';
import { hostingProduct } from './hosting.product.ts';
import { seedHostingServer } from './hosting.seed.ts';
import { hostingRoutes } from './hosting.routes.ts';
import { simulatedPanelRoutes } from './simulated-panel.page.ts';
import { deleteExpiredHostingJob, hostingTermsSchedule, provisionHostingJob, suspendHostingJob, unsuspendHostingJob } from './hosting-lifecycle.ts';

export const hostingModule = defineProduct({
  name: 'hosting',
  product: hostingProduct,
  seed: seedHostingServer,
  routes: [hostingRoutes, simulatedPanelRoutes],
  jobs: [provisionHostingJob, unsuspendHostingJob, suspendHostingJob, deleteExpiredHostingJob],
  schedules: [hostingTermsSchedule],
});
