import { defineModule } from '../../jobs/define.ts';
import { domainRoutes } from './domains.routes.ts';
import { syncContactJob } from './registrar-contact.ts';
import { deliverDomainJob, domainTermsSchedule, pollTransferJob, releaseDomainJob, renewDomainJob } from './domain-lifecycle.ts';

export const domainsModule = defineModule({
  name: 'domains',
  routes: [domainRoutes],
  jobs: [deliverDomainJob, pollTransferJob, renewDomainJob, releaseDomainJob, syncContactJob],
  schedules: [domainTermsSchedule],
});
