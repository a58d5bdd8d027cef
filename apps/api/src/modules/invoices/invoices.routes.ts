import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, InvoiceCard, InvoiceIdParams, InvoiceList, ManualInvoiceInput, PageQuery, RecordPaymentInput, StaffInvoiceCard, StaffInvoicePage, CustomerIdParams } from '@hp/contract';
import { findInvoiceForDownload, invoiceFileName, issueCreditNote, listInvoices, toInvoiceCard } from './invoices.service.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderXRechnung } from './invoice-xrechnung.ts';
import { signedInRoutes } from '../../http/auth.ts';
import { createManualInvoice, listCustomerInvoices, recordPayment } from './manual-invoices.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError };
const staffErrors = { ...errors, 403: ApiError, 409: ApiError };
const security = [{ bearer: [] }];
const staff = { access: 'staff' as const };
const InvoiceParams = z.object({ id: z.uuid({ error: 'Rechnung nicht gefunden.' }) });
const CreditNoteInput = z.strictObject({
  reason: z.string({ error: 'Bitte geben Sie einen Grund an.' }).trim().min(3, { error: 'Bitte geben Sie einen Grund an.' }).max(500, { error: 'Der Grund ist zu lang (höchstens 500 Zeichen).' }),
});

/** Invoices and credit notes: list for the owner; downloads for the owner and staff. */
export async function invoiceRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps };
  const base = { config: { access: 'customer' as const } };

  u.get('/api/invoices', { ...base, schema: { tags: ['invoices'], summary: 'Meine Rechnungen', security: [{ bearer: [] }], querystring: PageQuery, response: { 200: InvoiceList, ...errors } } },
    async (req) => listInvoices(deps, req.user, req.query));

  u.get('/api/invoices/:id/pdf', { ...base, schema: { tags: ['invoices'], summary: 'Rechnung als PDF', security: [{ bearer: [] }], params: InvoiceParams } },
    async (req, reply) => {
      const invoice = await findInvoiceForDownload(deps, req.user, req.params.id);
      const pdf = await renderInvoicePdf(invoice.document);
      return reply.type('application/pdf').header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${invoiceFileName(invoice, 'pdf')}"`).send(pdf);
    });

  u.get('/api/invoices/:id/xrechnung', { ...base, schema: { tags: ['invoices'], summary: 'Rechnung als E-Rechnung (XRechnung 3.0, UBL)', security: [{ bearer: [] }], params: InvoiceParams } },
    async (req, reply) => {
      const invoice = await findInvoiceForDownload(deps, req.user, req.params.id);
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${invoiceFileName(invoice, 'xml')}"`).send(renderXRechnung(invoice.document));
    });

  // A correction never edits the invoice: the owner issues a credit note that references it.
  r.post('/api/admin/invoices/:id/credit-note', { config: { access: 'owner' as const }, schema: { tags: ['invoices'], summary: 'Gutschrift zu einer Rechnung ausstellen (Inhaber)', security: [{ bearer: [] }], params: InvoiceParams, body: CreditNoteInput, response: { 201: InvoiceCard, ...errors } } },
    async (req, reply) => reply.code(201).send(toInvoiceCard(await issueCreditNote(deps, req.params.id, req.body.reason))));

  // Staff, from the customer page: the customer's documents, manual invoices and recorded payments.
  u.get('/api/staff/customers/:id/invoices', { config: staff, schema: { tags: ['invoices'], summary: 'Rechnungen und Gutschriften eines Kunden mit Zahlungsstand', security, params: CustomerIdParams, querystring: PageQuery, response: { 200: StaffInvoicePage, ...staffErrors } } },
    async (req) => listCustomerInvoices(deps, req.params.id, req.query));

  u.post('/api/staff/customers/:id/invoices', { config: staff, schema: { tags: ['invoices'], summary: 'Rechnung erstellen (freie Positionen, 19 % oder Reverse Charge; Zahlung per Überweisung)', security, params: CustomerIdParams, body: ManualInvoiceInput, response: { 201: StaffInvoiceCard, ...staffErrors } } },
    async (req, reply) => reply.code(201).send(await createManualInvoice(deps, req.user, req.params.id, req.body)));

  u.post('/api/staff/invoices/:id/payments', { config: staff, schema: { tags: ['invoices'], summary: 'Zahlungseingang erfassen (Überweisung oder SEPA)', security, params: InvoiceIdParams, body: RecordPaymentInput, response: { 201: StaffInvoiceCard, ...staffErrors } } },
    async (req, reply) => reply.code(201).send(await recordPayment(deps, req.user, req.params.id, req.body)));
}
