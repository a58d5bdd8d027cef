import type { FastifyInstance } from 'fastify';
import { ApiError, CheckoutInput, CheckoutResponse, CustomerIdParams, MessageResult, OrderLinkInput, ServerIdParams, UpgradeInfo } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { checkout, getUpgradeInfo } from './root-server.shop.ts';
import { sendOrderLink } from './root-server.order-link.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };

/**
 * The root server's shop: the configurator's checkout, the prefill for renewing or upgrading one's own
 * server, and staff's "Neue Bestellung" for a customer (a configuration mailed as a payment link, decision 021).
 */
export async function rootServerShopRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const base = { config: { access: 'customer' as const } };

  u.get('/api/shop/upgrade/:id', { ...base, schema: { tags: ['shop'], summary: 'Vorbelegung für Verlängerung/Upgrade eines eigenen Servers', security: [{ bearer: [] }], params: ServerIdParams, response: { 200: UpgradeInfo, ...errors } } },
    async (req) => getUpgradeInfo(deps, req.user, req.params.id));

  u.post('/api/shop/checkout', { ...base, schema: { tags: ['shop'], summary: 'Bestellung anlegen und Zahlung starten (Preis berechnet der Server)', security: [{ bearer: [] }], body: CheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await checkout(deps, req.user, req.body)));

  u.post('/api/staff/customers/:id/order-link', { config: { access: 'staff' as const }, schema: { tags: ['customers'], summary: 'Neue Bestellung für den Kunden: Konfiguration mit Zahlungslink per E-Mail (bezahlt und ausgeliefert wie jede Bestellung)', security: [{ bearer: [] }], params: CustomerIdParams, body: OrderLinkInput, response: { 202: MessageResult, ...errors, 403: ApiError } } },
    async (req, reply) => reply.code(202).send(await sendOrderLink({ ...deps, jobs: app.jobs }, req.user, req.params.id, req.body)));
}
