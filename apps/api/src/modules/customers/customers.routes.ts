import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, CustomerDocument, CustomerDocumentList, CustomerDocumentParams, CustomerDocumentUploadQuery, MAX_ATTACHMENT_BYTES, customerDocumentMessages, CustomerOrderPage, PageQuery, privacyMessages, CreateCustomerNoteInput, CustomerDetail, CustomerExportQuery, CustomerIdParams, CustomerListQuery, CustomerNote, CustomerPage, LockCustomerInput, UpdateCustomerInput, Communication, MessageResult, RecordCommunicationInput, SendCustomerMailInput, StaffEmailChangeInput } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { sendFile, uploadRoutes } from '../../http/files.ts';
import { deleteCustomerDocument, findCustomerDocument, listCustomerDocuments, uploadCustomerDocument } from './customer-documents.ts';
import { recordCommunication, sendCustomerMail } from './communications.ts';
import { deleteCustomerAccount } from './customer-deletion.ts';
import { cancelCustomerEmailChange, requestCustomerEmailChange } from './email-change.ts';
import { addCustomerNote, exportCustomersCsv, findCustomers, getCustomer, listCustomerOrders, setCustomerLock, updateCustomer } from './customers.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const security = [{ bearer: [] }];
const staff = { access: 'staff' as const };

/** Customer management for employee and owner (customers get 403 from the API, /notfound in the UI). */
export async function customerRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/staff/customers', { config: staff, schema: { tags: ['customers'], summary: 'Kunden (Suche: Name, E-Mail, Kundennummer; sortierbar, seitenweise)', security, querystring: CustomerListQuery, response: { 200: CustomerPage, ...errors } } },
    async (req) => findCustomers(deps, req.query));

  u.get('/api/staff/customers/export.csv', { config: staff, schema: { tags: ['customers'], summary: 'CSV-Export der aktuellen Suche (Formeln entschärft)', security, querystring: CustomerExportQuery, response: { 200: z.string(), ...errors } } },
    async (req, reply) => {
      const csv = await exportCustomersCsv(deps, req.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="kunden-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(csv);
    });

  u.get('/api/staff/customers/:id', { config: staff, schema: { tags: ['customers'], summary: 'Kundendetails: Profil, Server, offene Tickets, letzte Bestellungen, Umsatz, Notizen', security, params: CustomerIdParams, response: { 200: CustomerDetail, ...errors } } },
    async (req) => getCustomer(deps, req.params.id));

  u.get('/api/staff/customers/:id/orders', { config: staff, schema: { tags: ['customers'], summary: 'Alle Bestellungen des Kunden (seitenweise, mit Rechnung)', security, params: CustomerIdParams, querystring: PageQuery, response: { 200: CustomerOrderPage, ...errors } } },
    async (req) => listCustomerOrders(deps, req.params.id, req.query));

  u.post('/api/staff/customers/:id/notes', { config: staff, schema: { tags: ['customers'], summary: 'Interne Notiz zum Kunden (nur Mitarbeiter)', security, params: CustomerIdParams, body: CreateCustomerNoteInput, response: { 201: CustomerNote, ...errors } } },
    async (req, reply) => reply.code(201).send(await addCustomerNote(deps, req.user, req.params.id, req.body)));

  u.put('/api/staff/customers/:id', { config: staff, schema: { tags: ['customers'], summary: 'Kontaktdaten ändern (jede Änderung wird protokolliert)', security, params: CustomerIdParams, body: UpdateCustomerInput, response: { 200: CustomerDetail, ...errors } } },
    async (req) => updateCustomer(deps, req.user, req.params.id, req.body));

  u.post('/api/staff/customers/:id/email', { config: staff, schema: { tags: ['customers'], summary: 'E-Mail-Adresse ändern: Bestätigungslink an die neue Adresse (gilt erst nach der Bestätigung)', security, params: CustomerIdParams, body: StaffEmailChangeInput, response: { 202: MessageResult, ...errors, 429: ApiError } } },
    async (req, reply) => reply.code(202).send(await requestCustomerEmailChange({ ...deps, jobs: app.jobs }, req.user, req.params.id, req.body)));

  u.delete('/api/staff/customers/:id/email', { config: staff, schema: { tags: ['customers'], summary: 'Ausstehende E-Mail-Änderung verwerfen (der Link gilt nicht mehr)', security, params: CustomerIdParams, response: { 200: MessageResult, ...errors } } },
    async (req) => cancelCustomerEmailChange(deps, req.user, req.params.id));

  u.put('/api/staff/customers/:id/lock', { config: staff, schema: { tags: ['customers'], summary: 'Konto sperren (alle Sitzungen enden sofort) oder freigeben', security, params: CustomerIdParams, body: LockCustomerInput, response: { 200: CustomerDetail, ...errors } } },
    async (req) => setCustomerLock(deps, req.user, req.params.id, req.body));

  u.post('/api/staff/customers/:id/mails', { config: staff, schema: { tags: ['customers'], summary: 'E-Mail an den Kunden senden (wird unter Kommunikation protokolliert)', security, params: CustomerIdParams, body: SendCustomerMailInput, response: { 202: MessageResult, ...errors, 429: ApiError } } },
    async (req, reply) => reply.code(202).send(await sendCustomerMail({ ...deps, jobs: app.jobs }, req.user, req.params.id, req.body)));


  u.post('/api/staff/customers/:id/communications', { config: staff, schema: { tags: ['customers'], summary: 'Anruf, Termin oder sonstigen Kontakt erfassen', security, params: CustomerIdParams, body: RecordCommunicationInput, response: { 201: Communication, ...errors } } },
    async (req, reply) => reply.code(201).send(await recordCommunication(deps, req.user, req.params.id, req.body)));

  // ---- uploaded documents (tab "Dokumente"; the file rules of docs/decisions/015) ----
  u.get('/api/staff/customers/:id/documents', { config: staff, schema: { tags: ['customers'], summary: 'Hochgeladene Dokumente des Kunden (Name, Typ, Größe, hochgeladen von, Datum)', security, params: CustomerIdParams, response: { 200: CustomerDocumentList, ...errors } } },
    async (req) => ({ documents: await listCustomerDocuments(deps, req.params.id) }));

  u.get('/api/staff/customers/:id/documents/:documentId', { config: staff, schema: { tags: ['customers'], summary: 'Dokument herunterladen (immer als Download)', security, params: CustomerDocumentParams, response: errors } },
    async (req, reply) => sendFile(reply, await findCustomerDocument(deps, req.params.id, req.params.documentId)));

  u.delete('/api/staff/customers/:id/documents/:documentId', { config: staff, schema: { tags: ['customers'], summary: 'Dokument löschen (wird protokolliert)', security, params: CustomerDocumentParams, response: { 200: MessageResult, ...errors } } },
    async (req) => {
      await deleteCustomerDocument(deps, req.user, req.params.id, req.params.documentId);
      return { message: customerDocumentMessages.deleted };
    });

  await uploadRoutes(app, (scope, body) => {
    signedInRoutes(scope).post('/api/staff/customers/:id/documents', { config: staff, bodyLimit: MAX_ATTACHMENT_BYTES, schema: { tags: ['customers'], summary: 'Dokument hochladen, z. B. einen Vertrag (PDF, Bild, Text; höchstens 10 MB; Typ wird am Inhalt erkannt; wird protokolliert)', security, params: CustomerIdParams, querystring: CustomerDocumentUploadQuery, response: { 201: CustomerDocument, ...errors, 413: ApiError, 415: ApiError, 429: ApiError } } },
      async (req, reply) => reply.code(201).send(await uploadCustomerDocument(deps, req.user, req.params.id, { name: req.query.name, description: req.query.description, data: body(req) })));
  });

  // Owner only (decision 018): employees get 403 like every owner route.
  u.delete('/api/staff/customers/:id', { config: { access: 'owner' }, schema: { tags: ['customers'], summary: 'Kunden löschen: persönliche Daten anonymisieren, Rechnungen bleiben (nur Inhaber; nicht bei aktiven Servern oder offenen Rechnungen)', security, params: CustomerIdParams, response: { 200: MessageResult, ...errors, 409: ApiError } } },
    async (req) => {
      await deleteCustomerAccount(deps, req.user, req.params.id, { self: false });
      return { message: privacyMessages.customerDeleted };
    });
}
