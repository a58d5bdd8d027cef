import { defineProduct } from '../products/define-product.ts';
import { vdcProduct } from './vdc.product.ts';
import { vdcRoutes } from './vdc.routes.ts';
import { vdcOfferRoutes } from './vdc-offers.routes.ts';
import { applyVdcRenewalJob, deleteExpiredVdcJob, deleteVdcVmJob, provisionVdcJob, provisionVdcVmJob, resizeVdcVmJob, suspendVdcJob, vdcTermsSchedule } from './vdc.jobs.ts';
import { vdcIsoRoutes } from './vdc-isos.routes.ts';
import { abandonedIsoUploadsSchedule, removeIsoJob, transferIsoJob } from './vdc-isos.service.ts';
import { vdcNetworkRoutes } from './vdc-network.routes.ts';
import { applyNetworkJob } from './vdc-network.service.ts';

/** The virtual data center (decision 036): the pool and its VMs, its ISO library and its private network. */
export const vdcModule = defineProduct({
  name: 'vdc',
  product: vdcProduct,
  routes: [vdcRoutes, vdcIsoRoutes, vdcNetworkRoutes, vdcOfferRoutes],
  jobs: [
    provisionVdcJob, applyVdcRenewalJob, provisionVdcVmJob, resizeVdcVmJob, deleteVdcVmJob, suspendVdcJob, deleteExpiredVdcJob,
    transferIsoJob, removeIsoJob, applyNetworkJob,
  ],
  schedules: [vdcTermsSchedule, abandonedIsoUploadsSchedule],
});
