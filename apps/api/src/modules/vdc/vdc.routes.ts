import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminVdcListQuery, AdminVdcPage, ApiError, CheckoutResponse, VdcCheckoutInput, VdcDetail, VdcIdParams, VdcIpAssignInput, VdcIpParams, VdcIpv4, VdcList,
  VdcShopInfo, VdcVm, VdcVmActionResult, VdcVmCreateInput, VdcVmParams, VdcVmResizeInput,
} from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { placeOrder } from '../shop/shop.service.ts';
import { vdcProduct } from './vdc.product.ts';
import * as vdc from './vdc.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };
const security = [{ bearer: [] }];

/**
 * The virtual data center (decision 036): the shop's configurator and checkout, the customer's pool page
 * with its VMs and addresses (owner only; another customer's ids answer 404), and staff's list. The VMs'
 * own panels are the root server's routes (/api/servers/:id/…).
 */
export async function vdcRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log, jobs: app.jobs };
  const customer = { config: { access: 'customer' as const } };
  const staff = { config: { access: 'staff' as const } };
  const doc = (summary: string) => ({ tags: ['vdc'], summary, security });

  // ── Shop ──
  r.get('/api/shop/vdc', { config: { access: 'public' }, schema: { tags: ['shop'], summary: 'Virtual-Data-Center-Shop: ob ein Pool der kleinsten Größe gerade Platz hat', response: { 200: VdcShopInfo } } },
    async () => vdc.getVdcShopInfo(deps, null));
  u.get('/api/shop/vdc/renewal/:id', { ...customer, schema: { ...doc('Vorbelegung für Verlängerung und Vergrößerung eines eigenen Virtual Data Centers'), tags: ['shop'], params: VdcIdParams, response: { 200: VdcShopInfo, ...errors } } },
    async (req) => vdc.getVdcShopInfo(deps, req.user, req.params.id));
  u.post('/api/shop/vdc/checkout', { ...customer, schema: { ...doc('Virtual Data Center bestellen, verlängern oder vergrößern und Zahlung starten (Preis berechnet der Server)'), tags: ['shop'], body: VdcCheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await placeOrder(deps, req.user, vdcProduct, req.body)));

  // ── The pool page ──
  u.get('/api/vdcs', { ...customer, schema: { ...doc('Eigene Virtual Data Center'), response: { 200: VdcList, ...errors } } },
    async (req) => vdc.listVdcs(deps, req.user));
  u.get('/api/vdcs/:id', { ...customer, schema: { ...doc('Virtual Data Center mit Belegung, VMs, ISO-Images, Netz und Adressen'), params: VdcIdParams, response: { 200: VdcDetail, ...errors } } },
    async (req) => vdc.getVdcDetail(deps, req.user, req.params.id));
  u.post('/api/vdcs/:id/vms', { ...customer, schema: { ...doc('VM im Pool erstellen (innerhalb der freien Ressourcen)'), params: VdcIdParams, body: VdcVmCreateInput, response: { 201: VdcVm, ...errors } } },
    async (req, reply) => reply.code(201).send(await vdc.createVm(deps, req.user, req.params.id, req.body)));
  u.patch('/api/vdcs/:id/vms/:vmId', { ...customer, schema: { ...doc('VM innerhalb des Pools anpassen (die Festplatte wächst nur)'), params: VdcVmParams, body: VdcVmResizeInput, response: { 202: VdcVmActionResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await vdc.resizeVm(deps, req.user, req.params.id, req.params.vmId, req.body)));
  u.delete('/api/vdcs/:id/vms/:vmId', { ...customer, schema: { ...doc('VM löschen (ihre Ressourcen sind sofort wieder frei)'), params: VdcVmParams, response: { 202: VdcVmActionResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await vdc.deleteVm(deps, req.user, req.params.id, req.params.vmId)));
  u.put('/api/vdcs/:id/ips/:ipId', { ...customer, schema: { ...doc('Öffentliche IPv4-Adresse des Pools einer VM geben oder wegnehmen'), params: VdcIpParams, body: VdcIpAssignInput, response: { 200: VdcIpv4, ...errors } } },
    async (req) => vdc.assignIp(deps, req.user, req.params.id, req.params.ipId, req.body.serverId));

  // ── Staff ──
  u.get('/api/admin/vdcs', { ...staff, schema: { ...doc('Virtual Data Center aller Kunden (Suche, Filter, Sortierung, Seiten)'), querystring: AdminVdcListQuery, response: { 200: AdminVdcPage, ...errors } } },
    async (req) => vdc.findAdminVdcs(deps, req.query));
}
