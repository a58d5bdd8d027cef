import type { FastifyInstance } from 'fastify';
import { ApiError, VdcIdParams, VdcNetwork, VdcNetworkInput, VdcVmNetworkInput, VdcVmNetworkState, VdcVmParams } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import * as network from './vdc-network.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };
const security = [{ bearer: [] }];
const customer = { config: { access: 'customer' as const } };
const doc = (summary: string) => ({ tags: ['vdc'], summary, security });

/** The VDC's private network (owner only; another customer's ids answer 404). */
export async function vdcNetworkRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/vdcs/:id/network', { ...customer, schema: { ...doc('Privates Netz: Adressbereich, Gateway und Mitglieder'), params: VdcIdParams, response: { 200: VdcNetwork, ...errors } } },
    async (req) => network.getNetwork(deps, req.user.id, req.params.id));
  u.put('/api/vdcs/:id/network', { ...customer, schema: { ...doc('Adressbereich des privaten Netzes wählen (RFC 1918; nur ohne Mitglieder änderbar)'), params: VdcIdParams, body: VdcNetworkInput, response: { 200: VdcNetwork, ...errors } } },
    async (req) => network.setNetwork(deps, req.user.id, req.params.id, req.body.cidr));
  u.put('/api/vdcs/:id/vms/:vmId/network', { ...customer, schema: { ...doc('VM dem privaten Netz hinzufügen (nächste freie Adresse) oder herausnehmen'), params: VdcVmParams, body: VdcVmNetworkInput, response: { 200: VdcVmNetworkState, ...errors } } },
    async (req) => network.setVmNetwork(deps, req.user.id, req.params.id, req.params.vmId, req.body.join));
}
