import { defineModule } from '../../jobs/define.ts';
import { eventRoutes } from './events.routes.ts';

export const eventsModule = defineModule({
  name: 'events',
  routes: [eventRoutes],
});
