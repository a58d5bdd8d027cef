import { defineProduct } from '../products/define-product.ts';
import { provisionOrderJob, rootServerProduct } from './root-server.product.ts';
import { rootServerShopRoutes } from './root-server.shop.routes.ts';
import { serverRoutes } from './servers.routes.ts';
import { softwareJob } from './software.service.ts';
import { reinstallJob } from './settings.service.ts';
import { applyUpgradeJob } from './resize.ts';
import { deleteExpiredServerJob, serverTermsSchedule, suspendServerJob } from './server-terms.ts';
import { settleTasksSchedule } from './task-settler.ts';

/** The root server: its product (shop, orders, payments), its shop routes and the server pages. */
export const serversModule = defineProduct({
  name: 'servers',
  product: rootServerProduct,
  routes: [serverRoutes, rootServerShopRoutes],
  jobs: [provisionOrderJob, softwareJob, reinstallJob, applyUpgradeJob, suspendServerJob, deleteExpiredServerJob],
  schedules: [settleTasksSchedule, serverTermsSchedule],
});
