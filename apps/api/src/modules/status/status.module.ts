import { defineModule } from '../../jobs/define.ts';
import { statusRoutes } from './status.routes.ts';

export const statusModule = defineModule({
  name: 'status',
  routes: [statusRoutes],
});
