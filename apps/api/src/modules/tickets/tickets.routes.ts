import type { FastifyInstance } from 'fastify';
import {
  ApiError,
  CreateTicketInput,
  PostTicketMessageInput,
  StaffTicketDetail,
  StaffTicketListQuery,
  StaffTicketMessageInput,
  StaffTicketPage,
  Ticket,
  TicketIdParams,
  TicketList,
  TicketMailSetting,
  TicketMessage,
  TicketMessagePage,
  TicketMessagesQuery,
  TicketStatusInput,
} from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import {
  closeOwnTicket,
  closeTicketAsStaff,
  findStaffTickets,
  getOwnTicket,
  getStaffTicket,
  getTicketMailSetting,
  listOwnTicketMessages,
  listOwnTickets,
  listStaffTicketMessages,
  openTicket,
  postCustomerMessage,
  postStaffMessage,
  setTicketMailSetting,
  setTicketStatus,
  takeOverTicket,
} from './tickets.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };
const security = [{ bearer: [] }];
const customer = { access: 'customer' as const };
const staff = { access: 'staff' as const };

/**
 * Support tickets (docs/decisions/014). Customers reach only their own tickets (another's is 404, with
 * no side effect); staff reach all under /api/staff/tickets. Internal notes only ever leave through the
 * staff routes.
 */
export async function ticketRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  // ---- customer ----
  u.get('/api/tickets', { config: customer, schema: { tags: ['tickets'], summary: 'Meine Tickets (neueste zuerst)', security, response: { 200: TicketList, ...errors } } },
    async (req) => ({ tickets: await listOwnTickets(deps, req.user) }));

  u.post('/api/tickets', { config: customer, schema: { tags: ['tickets'], summary: 'Ticket eröffnen (optional zu einem eigenen Server)', security, body: CreateTicketInput, response: { 201: Ticket, ...errors } } },
    async (req, reply) => reply.code(201).send(await openTicket(deps, req.user, req.body)));

  u.get('/api/tickets/:id', { config: customer, schema: { tags: ['tickets'], summary: 'Eigenes Ticket', security, params: TicketIdParams, response: { 200: Ticket, ...errors } } },
    async (req) => getOwnTicket(deps, req.user, req.params.id));

  u.get('/api/tickets/:id/messages', { config: customer, schema: { tags: ['tickets'], summary: 'Chat des eigenen Tickets, neueste zuerst, seitenweise (before = Cursor)', security, params: TicketIdParams, querystring: TicketMessagesQuery, response: { 200: TicketMessagePage, ...errors } } },
    async (req) => listOwnTicketMessages(deps, req.user, req.params.id, req.query));

  u.post('/api/tickets/:id/messages', { config: customer, schema: { tags: ['tickets'], summary: 'Nachricht an den Support', security, params: TicketIdParams, body: PostTicketMessageInput, response: { 201: TicketMessage, ...errors } } },
    async (req, reply) => reply.code(201).send(await postCustomerMessage(deps, req.user, req.params.id, req.body.body)));

  u.post('/api/tickets/:id/close', { config: customer, schema: { tags: ['tickets'], summary: 'Eigenes Ticket schließen', security, params: TicketIdParams, response: { 200: Ticket, ...errors } } },
    async (req) => closeOwnTicket(deps, req.user, req.params.id));

  // ---- staff ----
  u.get('/api/staff/tickets', { config: staff, schema: { tags: ['tickets'], summary: 'Offene, nicht übernommene Tickets (Suche: Titel, Kundenname; Filter: Status, Art; sortierbar, seitenweise)', security, querystring: StaffTicketListQuery, response: { 200: StaffTicketPage, ...errors } } },
    async (req) => findStaffTickets(deps, req.user, 'unassigned', req.query));

  u.get('/api/staff/tickets/mine', { config: staff, schema: { tags: ['tickets'], summary: 'Von mir übernommene Tickets', security, querystring: StaffTicketListQuery, response: { 200: StaffTicketPage, ...errors } } },
    async (req) => findStaffTickets(deps, req.user, 'mine', req.query));

  u.get('/api/staff/ticket-mails', { config: staff, schema: { tags: ['tickets'], summary: 'Eigene Ticket-Benachrichtigungen (neue Tickets, Kundenantworten) an oder aus', security, response: { 200: TicketMailSetting, ...errors } } },
    async (req) => getTicketMailSetting(deps, req.user));

  u.put('/api/staff/ticket-mails', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket-Benachrichtigungen ein- oder ausschalten', security, body: TicketMailSetting, response: { 200: TicketMailSetting, ...errors } } },
    async (req) => setTicketMailSetting(deps, req.user, req.body));

  u.get('/api/staff/tickets/:id', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket mit Kundendaten und betroffenem Server', security, params: TicketIdParams, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => getStaffTicket(deps, req.user, req.params.id));

  u.get('/api/staff/tickets/:id/messages', { config: staff, schema: { tags: ['tickets'], summary: 'Chat mit internen Notizen, neueste zuerst, seitenweise', security, params: TicketIdParams, querystring: TicketMessagesQuery, response: { 200: TicketMessagePage, ...errors } } },
    async (req) => listStaffTicketMessages(deps, req.params.id, req.query));

  u.post('/api/staff/tickets/:id/messages', { config: staff, schema: { tags: ['tickets'], summary: 'Antwort an den Kunden oder interne Notiz (internal: true)', security, params: TicketIdParams, body: StaffTicketMessageInput, response: { 201: TicketMessage, ...errors } } },
    async (req, reply) => reply.code(201).send(await postStaffMessage(deps, req.user, req.params.id, { body: req.body.body, internal: req.body.internal ?? false })));

  u.put('/api/staff/tickets/:id/status', { config: staff, schema: { tags: ['tickets'], summary: 'Status setzen (Offen / In Bearbeitung)', security, params: TicketIdParams, body: TicketStatusInput, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => setTicketStatus(deps, req.user, req.params.id, req.body));

  u.post('/api/staff/tickets/:id/assign', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket übernehmen (genau einer gewinnt; sonst 409)', security, params: TicketIdParams, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => takeOverTicket(deps, req.user, req.params.id));

  u.post('/api/staff/tickets/:id/close', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket schließen (ein zweites Schließen: 409)', security, params: TicketIdParams, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => closeTicketAsStaff(deps, req.user, req.params.id));
}
