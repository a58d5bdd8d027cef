import type { FastifyInstance } from 'fastify';
import { ApiError, TaxViewResponse, CheckoutResponse, PaymentResult, PaymentResultQuery, PaymentRetryParams } from '@hp/contract';
import { retryPayment } from './shop.service.ts';
import { getPaymentResult } from '../payments/payments.service.ts';
import { signedInRoutes } from '../../http/auth.ts';
import { taxViewFor } from '../tax/tax.service.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };

/** The shop's neutral routes: the customer's tax view, the payment result page and a new payment for an open order. Identity comes from the token. */
export async function shopRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const base = { config: { access: 'customer' as const } };

  u.get('/api/shop/tax', { ...base, schema: { tags: ['shop'], summary: 'Wie die Preise für den angemeldeten Kunden gelten (Steuersatz, netto/brutto, Hinweis)', security: [{ bearer: [] }], response: { 200: TaxViewResponse, ...errors } } },
    async (req) => taxViewFor(deps, req.user.id));

  u.get('/api/shop/payment-result', { ...base, schema: { tags: ['shop'], summary: 'Zahlungsergebnis (fragt den Zahlungsanbieter, startet die Auslieferung)', security: [{ bearer: [] }], querystring: PaymentResultQuery, response: { 200: PaymentResult, ...errors } } },
    async (req) => getPaymentResult(deps, req.user, req.query));

  u.post('/api/shop/orders/:id/payment', { ...base, schema: { tags: ['shop'], summary: 'Neue Zahlung für eine offene Bestellung, deren letzte Zahlung fehlschlug (solange die Reservierung läuft)', security: [{ bearer: [] }], params: PaymentRetryParams, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await retryPayment(deps, req.user, req.params.id)));
}
