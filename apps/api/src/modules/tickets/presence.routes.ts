import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, TicketIdParams, TicketPresence, TicketPresenceInput } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { leavePresence, listPresence, recordPresence } from './presence.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const security = [{ bearer: [] }];
const staff = { access: 'staff' as const };

/**
 * Who else is in a supporter ticket view (docs/decisions/014, presence): a heartbeat, leaving, and the
 * list of the others. Staff only; it warns and never blocks anything.
 */
export async function ticketPresenceRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.put('/api/staff/tickets/:id/presence', { config: staff, schema: { tags: ['tickets'], summary: 'Heartbeat im Ticket (alle 10 s; tippt oder nicht); antwortet mit den anderen Mitarbeitern im Ticket', security, params: TicketIdParams, body: TicketPresenceInput, response: { 200: TicketPresence, ...errors } } },
    async (req) => recordPresence(deps, req.user, req.params.id, req.body));

  u.delete('/api/staff/tickets/:id/presence', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket-Ansicht verlassen', security, params: TicketIdParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await leavePresence(deps, req.user, req.params.id);
      return reply.code(204).send(null);
    });

  u.get('/api/staff/tickets/:id/presence', { config: staff, schema: { tags: ['tickets'], summary: 'Andere Mitarbeiter, die dieses Ticket gerade ansehen oder darin schreiben', security, params: TicketIdParams, response: { 200: TicketPresence, ...errors } } },
    async (req) => listPresence(deps, req.user, req.params.id));
}
