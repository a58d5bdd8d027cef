import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiError, CheckoutResponse, DomainAuthCode, DomainAuthCodeInput, DomainAutoRenewInput, DomainCheckoutInput, DomainDetail, DomainIdParams, DomainList,
  DomainNameserversInput, DomainQuote, DomainQuoteQuery, DomainSearchQuery, DomainSearchResult, DomainTransferLockInput,
} from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { AvailabilityCache, searchDomains } from './domain-search.service.ts';
import * as domains from './domains.service.ts';

const tags = ['domains'];
const security = [{ bearer: [] }];
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };

/** Domains (issue 13): the public search, the order, and the customer's own domains. */
export async function domainRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const cache = new AvailabilityCache();
  const customer = { config: { access: 'customer' as const } };
  const doc = (summary: string) => ({ tags, summary, security });

  r.get('/api/domains/search', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Domainsuche: Verfügbarkeit und Preis je Endung (öffentlich, je Adresse begrenzt, kurz zwischengespeichert)',
      querystring: DomainSearchQuery,
      response: { 200: DomainSearchResult, 400: ApiError, 429: ApiError, 503: ApiError },
    },
  }, async (req) => searchDomains({ ...deps, log: req.log }, cache, req.query.q, req.ip));

  // ── Shop ──
  u.get('/api/shop/domain', { ...customer, schema: { ...doc('Bestellformular: Verfügbarkeit, Preis, Laufzeiten und fehlende Profilangaben einer Domain'), tags: ['shop'], querystring: DomainQuoteQuery, response: { 200: DomainQuote, ...errors } } },
    async (req) => domains.quoteDomain(deps, req.user, req.query));
  u.post('/api/shop/domain/checkout', { ...customer, schema: { ...doc('Domain registrieren, übertragen oder verlängern und Zahlung starten (Preis berechnet der Server)'), tags: ['shop'], body: DomainCheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await domains.checkoutDomain(deps, req.user, req.body)));

  // ── Meine Produkte → Domains ──
  u.get('/api/domains', { ...customer, schema: { ...doc('Eigene Domains'), response: { 200: DomainList, ...errors } } },
    async (req) => domains.listDomains(deps, req.user));
  u.get('/api/domains/:id', { ...customer, schema: { ...doc('Eine eigene Domain mit Nameservern und Transfersperre'), params: DomainIdParams, response: { 200: DomainDetail, ...errors } } },
    async (req) => domains.getDomain(deps, req.user, req.params.id));
  u.put('/api/domains/:id/nameservers', { ...customer, schema: { ...doc('Nameserver ändern (zwei bis vier, oder Musterhost-DNS)'), params: DomainIdParams, body: DomainNameserversInput, response: { 200: DomainDetail, ...errors } } },
    async (req) => domains.setNameservers(deps, req.user, req.params.id, req.body));
  u.put('/api/domains/:id/transfer-lock', { ...customer, schema: { ...doc('Transfersperre an oder aus'), params: DomainIdParams, body: DomainTransferLockInput, response: { 200: DomainDetail, ...errors } } },
    async (req) => domains.setTransferLock(deps, req.user, req.params.id, req.body.locked));
  u.put('/api/domains/:id/auto-renew', { ...customer, schema: { ...doc('Verlängern (Erinnerungen mit Zahlungslink) oder auslaufen lassen'), params: DomainIdParams, body: DomainAutoRenewInput, response: { 200: DomainDetail, ...errors } } },
    async (req) => domains.setAutoRenew(deps, req.user, req.params.id, req.body.autoRenew));
  u.post('/api/domains/:id/auth-code', { ...customer, schema: { ...doc('Auth-Code für einen Transfer zu einem anderen Anbieter (nach erneuter Passworteingabe, protokolliert)'), params: DomainIdParams, body: DomainAuthCodeInput, response: { 200: DomainAuthCode, ...errors } } },
    async (req) => domains.revealAuthCode(deps, req.user, req.params.id, req.body.password, req.ip));
}
