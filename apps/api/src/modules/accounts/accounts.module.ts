import { defineModule } from '../../jobs/define.ts';
import { accountRoutes } from './accounts.routes.ts';

export const accountsModule = defineModule({
  name: 'accounts',
  routes: [accountRoutes],
});
