import { defineModule } from '../../jobs/define.ts';
import { statusPages } from './status.pages.ts';
import { statusRoutes } from './status.routes.ts';

export const statusModule = defineModule({
  name: 'status',
  routes: [statusRoutes, statusPages],
});
