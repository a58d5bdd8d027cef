import { defineModule } from '../../jobs/define.ts';
import { ticketRoutes } from './tickets.routes.ts';

/** Support desk: tickets, chat, staff queue (docs/decisions/014). Mails go through the platform's send-mail job. */
export const ticketsModule = defineModule({
  name: 'tickets',
  routes: [ticketRoutes],
});
