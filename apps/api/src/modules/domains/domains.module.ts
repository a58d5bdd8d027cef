import { defineModule } from '../../jobs/define.ts';
import { domainRoutes } from './domains.routes.ts';

export const domainsModule = defineModule({
  name: 'domains',
  routes: [domainRoutes],
});
