import { defineModule } from '../../jobs/define.ts';
import { ticketPresenceRoutes } from './presence.routes.ts';
import { ticketRoutes } from './tickets.routes.ts';
import { ticketHousekeeping } from './attachments.service.ts';

/**
 * Support desk: tickets, chat, attachments, confidential fields, staff queue, staff presence
 * (docs/decisions/014, 015). Mails go through the platform's send-mail job.
 */
export const ticketsModule = defineModule({
  name: 'tickets',
  routes: [ticketRoutes, ticketPresenceRoutes],
  schedules: [ticketHousekeeping],
});
