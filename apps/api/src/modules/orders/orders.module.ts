import { defineModule } from '../../jobs/define.ts';
import { orderRoutes } from './orders.routes.ts';

export const ordersModule = defineModule({
  name: 'orders',
  routes: [orderRoutes],
});
