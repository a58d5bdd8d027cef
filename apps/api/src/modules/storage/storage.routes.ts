import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiError, CheckoutResponse, StorageCheckoutInput, StorageDetail, StorageIdParams, StorageList, StorageNameCheck, StorageNameParams,
  StoragePasswordResult, StorageServerInput, StorageServerList, StorageServerView, StorageShopInfo,
} from '@hp/contract';
import { signedInRoutes, type RequestUser } from '../../http/auth.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { placeOrder } from '../shop/shop.service.ts';
import { storageProduct } from './storage.product.ts';
import * as storage from './storage.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };
const security = [{ bearer: [] }];
const StorageServerParams = z.object({ id: z.coerce.number({ error: 'Speicherserver nicht gefunden.' }).int('Speicherserver nicht gefunden.').positive('Speicherserver nicht gefunden.').max(2_147_483_647, 'Speicherserver nicht gefunden.') });

/** Storage-server calls per customer (name checks while typing, new passwords): a burst cannot flood Nextcloud. */
const CALL_LIMIT = { limit: 120, windowSeconds: 600 };

/** Cloud storage: the shop's checkout and name check, the customer's account page, and staff's storage servers (decision 034). */
export async function storageRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const customer = { config: { access: 'customer' as const } };
  const staff = { config: { access: 'staff' as const } };
  const doc = (summary: string) => ({ tags: ['cloud-storage'], summary, security });
  const limited = (user: RequestUser) => enforceLimit(deps.db, { key: `storage-call:${user.id}`, ...CALL_LIMIT });

  // ── Shop ──
  r.get('/api/shop/cloud-storage', { config: { access: 'public' }, schema: { tags: ['shop'], summary: 'Cloud-Speicher-Shop: welche Tarife gerade Platz haben', response: { 200: StorageShopInfo } } },
    async () => storage.getStorageShopInfo(deps, null));
  u.get('/api/shop/cloud-storage/renewal/:id', { ...customer, schema: { ...doc('Vorbelegung für Verlängerung und Tarifwechsel eines eigenen Speichers'), tags: ['shop'], params: StorageIdParams, response: { 200: StorageShopInfo, ...errors } } },
    async (req) => storage.getStorageShopInfo(deps, req.user, req.params.id));
  u.get('/api/shop/cloud-storage/name/:name', { ...customer, schema: { ...doc('Ist der Kontoname frei? (vor dem Bezahlen)'), tags: ['shop'], params: StorageNameParams, response: { 200: StorageNameCheck, ...errors } } },
    async (req) => { await limited(req.user); return storage.checkName(deps, req.user, req.params.name); });
  u.post('/api/shop/cloud-storage/checkout', { ...customer, schema: { ...doc('Cloud-Speicher bestellen, verlängern oder Tarif wechseln und Zahlung starten (Preis berechnet der Server)'), tags: ['shop'], body: StorageCheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await placeOrder(deps, req.user, storageProduct, req.body)));

  // ── Account page ──
  u.get('/api/storage', { ...customer, schema: { ...doc('Eigene Cloud-Speicher'), response: { 200: StorageList, ...errors } } },
    async (req) => storage.listAccounts(deps, req.user));
  u.get('/api/storage/:id', { ...customer, schema: { ...doc('Cloud-Speicher mit Belegung und Zugangsdaten'), params: StorageIdParams, response: { 200: StorageDetail, ...errors } } },
    async (req) => storage.getAccountDetail(deps, req.user, req.params.id));
  u.post('/api/storage/:id/password', { ...customer, schema: { ...doc('Neues Passwort für die Nextcloud-Anmeldung erzeugen (wird nur einmal angezeigt)'), params: StorageIdParams, response: { 200: StoragePasswordResult, ...errors } } },
    async (req) => { await limited(req.user); return storage.resetPassword(deps, req.user, req.params.id); });

  // ── Staff: storage servers ──
  u.get('/api/admin/storage-servers', { ...staff, schema: { ...doc('Speicherserver mit Kapazität und vergebenen Kontingenten'), response: { 200: StorageServerList, ...errors } } },
    async () => storage.listStorageServers(deps));
  // Entering a server hands it the Nextcloud admin's app password on every call: the owner's decision (decision 034).
  const owner = { config: { access: 'owner' as const } };
  u.post('/api/admin/storage-servers', { ...owner, schema: { ...doc('Speicherserver (Nextcloud) eintragen'), body: StorageServerInput, response: { 201: StorageServerView, ...errors } } },
    async (req, reply) => reply.code(201).send(await storage.createStorageServer(deps, req.body)));
  u.delete('/api/admin/storage-servers/:id', { ...owner, schema: { ...doc('Leeren Speicherserver entfernen'), params: StorageServerParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => { await storage.deleteStorageServer(deps, req.params.id); return reply.code(204).send(null); });
}
