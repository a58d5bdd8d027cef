import { defineModule } from '../../jobs/define.ts';
import { shopRoutes } from './shop.routes.ts';

export const shopModule = defineModule({
  name: 'shop',
  routes: [shopRoutes],
});
