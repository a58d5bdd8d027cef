import type { FastifyInstance } from 'fastify';
import {
  ApiError,
  AttachmentParams,
  AttachmentUploadQuery,
  CreateTicketSecretInput,
  MAX_ATTACHMENT_BYTES,
  SecretParams,
  TicketAttachment,
  TicketSecret,
  TicketSecretList,
  TicketSecretValue,
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
import { sendFile, uploadRoutes } from '../../http/files.ts';
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
import { findAttachment, uploadAttachment, type Viewer } from './attachments.service.ts';
import { addOwnSecret, listOwnSecrets, listStaffSecrets, openSecret } from './secrets.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };
const uploadErrors = { ...errors, 413: ApiError, 415: ApiError, 429: ApiError };

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
    async (req, reply) => reply.code(201).send(await postCustomerMessage(deps, req.user, req.params.id, { body: req.body.body, attachmentIds: req.body.attachmentIds ?? [] })));

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
    async (req, reply) => reply.code(201).send(await postStaffMessage(deps, req.user, req.params.id, { body: req.body.body, internal: req.body.internal ?? false, attachmentIds: req.body.attachmentIds ?? [] })));

  u.put('/api/staff/tickets/:id/status', { config: staff, schema: { tags: ['tickets'], summary: 'Status setzen (Offen / In Bearbeitung)', security, params: TicketIdParams, body: TicketStatusInput, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => setTicketStatus(deps, req.user, req.params.id, req.body));

  u.post('/api/staff/tickets/:id/assign', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket übernehmen (genau einer gewinnt; sonst 409)', security, params: TicketIdParams, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => takeOverTicket(deps, req.user, req.params.id));

  u.post('/api/staff/tickets/:id/close', { config: staff, schema: { tags: ['tickets'], summary: 'Ticket schließen (ein zweites Schließen: 409)', security, params: TicketIdParams, response: { 200: StaffTicketDetail, ...errors } } },
    async (req) => closeTicketAsStaff(deps, req.user, req.params.id));

  // ---- attachments (both sides; docs/decisions/015) ----
  const customerViewer = (id: string): Viewer => ({ id, staff: false });
  const staffViewer = (id: string): Viewer => ({ id, staff: true });

  u.get('/api/tickets/:id/attachments/:fileId', { config: customer, schema: { tags: ['tickets'], summary: 'Anhang des eigenen Tickets herunterladen (immer als Download)', security, params: AttachmentParams, response: errors } },
    async (req, reply) => sendFile(reply, await findAttachment(deps, customerViewer(req.user.id), req.params.id, req.params.fileId)));

  u.get('/api/staff/tickets/:id/attachments/:fileId', { config: staff, schema: { tags: ['tickets'], summary: 'Anhang herunterladen (immer als Download)', security, params: AttachmentParams, response: errors } },
    async (req, reply) => sendFile(reply, await findAttachment(deps, staffViewer(req.user.id), req.params.id, req.params.fileId)));

  // The bytes arrive raw (application/octet-stream), at most 10 MB; the name rides in the query.
  await uploadRoutes(app, (scope, body) => {
    const up = signedInRoutes(scope);
    up.post('/api/tickets/:id/attachments', { config: customer, bodyLimit: MAX_ATTACHMENT_BYTES, schema: { tags: ['tickets'], summary: 'Datei für eine Nachricht hochladen (Bild, PDF, Text; höchstens 10 MB; Typ wird am Inhalt erkannt)', security, params: TicketIdParams, querystring: AttachmentUploadQuery, response: { 201: TicketAttachment, ...uploadErrors } } },
      async (req, reply) => reply.code(201).send(await uploadAttachment(deps, customerViewer(req.user.id), req.params.id, { name: req.query.name, data: body(req) })));
    up.post('/api/staff/tickets/:id/attachments', { config: staff, bodyLimit: MAX_ATTACHMENT_BYTES, schema: { tags: ['tickets'], summary: 'Datei für eine Antwort oder Notiz hochladen', security, params: TicketIdParams, querystring: AttachmentUploadQuery, response: { 201: TicketAttachment, ...uploadErrors } } },
      async (req, reply) => reply.code(201).send(await uploadAttachment(deps, staffViewer(req.user.id), req.params.id, { name: req.query.name, data: body(req) })));
  });

  // ---- confidential fields ----
  u.get('/api/tickets/:id/secrets', { config: customer, schema: { tags: ['tickets'], summary: 'Eigene vertrauliche Angaben (nur Bezeichnung und Zustand, nie der Wert)', security, params: TicketIdParams, response: { 200: TicketSecretList, ...errors } } },
    async (req) => listOwnSecrets(deps, req.user, req.params.id));

  u.post('/api/tickets/:id/secrets', { config: customer, schema: { tags: ['tickets'], summary: 'Vertrauliche Angabe verschlüsselt hinterlegen (wird beim Schließen gelöscht)', security, params: TicketIdParams, body: CreateTicketSecretInput, response: { 201: TicketSecret, ...errors, 429: ApiError } } },
    async (req, reply) => reply.code(201).send(await addOwnSecret(deps, req.user, req.params.id, req.body)));

  u.get('/api/staff/tickets/:id/secrets', { config: staff, schema: { tags: ['tickets'], summary: 'Vertrauliche Angaben mit Protokoll der Einsichten (ohne Werte)', security, params: TicketIdParams, response: { 200: TicketSecretList, ...errors } } },
    async (req) => listStaffSecrets(deps, req.params.id));

  u.post('/api/staff/tickets/:id/secrets/:secretId/open', { config: staff, schema: { tags: ['tickets'], summary: 'Vertrauliche Angabe einsehen (jede Einsicht wird protokolliert)', security, params: SecretParams, response: { 200: TicketSecretValue, ...errors } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return openSecret(deps, req.user, req.params.id, req.params.secretId);
    });
}
