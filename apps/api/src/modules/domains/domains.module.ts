import { defineProduct } from '../products/define-product.ts';
import { domainProduct } from './domain.product.ts';
import { domainRoutes } from './domains.routes.ts';
import { syncContactJob } from './registrar-contact.ts';
import { deliverDomainJob, domainTermsSchedule, pollTransferJob, releaseDomainJob, renewDomainJob } from './domain-lifecycle.ts';

export const domainsModule = defineProduct({
  name: 'domains',
  product: domainProduct,
  routes: [domainRoutes],
  jobs: [deliverDomainJob, pollTransferJob, renewDomainJob, releaseDomainJob, syncContactJob],
  schedules: [domainTermsSchedule],
});
