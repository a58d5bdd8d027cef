import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminPowerInput,
  AdminServerDetail,
  AdminServerIdParams,
  AdminServerListQuery,
  AdminServerPage,
  AdminServerRow,
  ApiError,
  CreateIpAddressInput,
  CreateNodeInput,
  CreateServerInput,
  CustomerOptionList,
  CustomerSearchQuery,
  InfrastructureIdParams,
  IpAddressListQuery,
  IpAddressPage,
  IpAddressRow,
  NodeListQuery,
  NodePage,
  NodeRow,
  PowerResult,
  ServerUsage,
} from '@hp/contract';
import { getStaffServer, getStaffServerUsage, staffPowerServer } from '../servers/staff-servers.service.ts';
import {
  createAdminServer,
  createIpAddress,
  createNode,
  deleteIpAddress,
  deleteNode,
  findAdminServers,
  findCustomerOptions,
  findIpAddresses,
  findNodes,
} from './infrastructure.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError };
const security = [{ bearer: [] }];
const access = { access: 'staff' as const };

/** Staff administration of physical servers (nodes), IP addresses and virtual servers (employee or owner). */
export async function infrastructureRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = app.deps;

  // ---- physical servers ----
  r.get('/api/admin/nodes', {
    config: access,
    schema: { tags: ['nodes'], summary: 'Physische Server mit belegten und freien Ressourcen (Suche: id, Name, Host; Filter: Status; seitenweise, sortierbar)', security, querystring: NodeListQuery, response: { 200: NodePage, ...errors } },
  }, async (req) => findNodes(deps, req.query));

  r.post('/api/admin/nodes', {
    config: access,
    schema: { tags: ['nodes'], summary: 'Physischen Server anlegen (Status: unbekannt)', security, body: CreateNodeInput, response: { 201: NodeRow, 409: ApiError, ...errors } },
  }, async (req, reply) => reply.code(201).send(await createNode(deps, req.body)));

  r.delete('/api/admin/nodes/:id', {
    config: access,
    schema: { tags: ['nodes'], summary: 'Physischen Server löschen (nicht, solange virtuelle Server darauf liegen)', security, params: InfrastructureIdParams, response: { 204: z.null(), 404: ApiError, 409: ApiError, ...errors } },
  }, async (req, reply) => {
    await deleteNode(deps, req.params.id);
    return reply.code(204).send(null);
  });

  // ---- IP addresses ----
  r.get('/api/admin/ip-addresses', {
    config: access,
    schema: { tags: ['ip-addresses'], summary: 'IP-Adressen mit Belegung (Suche: Adresse, id; Filter: Version, Belegung; seitenweise, sortierbar)', security, querystring: IpAddressListQuery, response: { 200: IpAddressPage, ...errors } },
  }, async (req) => findIpAddresses(deps, req.query));

  r.post('/api/admin/ip-addresses', {
    config: access,
    schema: { tags: ['ip-addresses'], summary: 'IP-Adresse eintragen', security, body: CreateIpAddressInput, response: { 201: IpAddressRow, 409: ApiError, ...errors } },
  }, async (req, reply) => reply.code(201).send(await createIpAddress(deps, req.body)));

  r.delete('/api/admin/ip-addresses/:id', {
    config: access,
    schema: { tags: ['ip-addresses'], summary: 'IP-Adresse löschen (nicht, solange sie verwendet wird)', security, params: InfrastructureIdParams, response: { 204: z.null(), 404: ApiError, 409: ApiError, ...errors } },
  }, async (req, reply) => {
    await deleteIpAddress(deps, req.params.id);
    return reply.code(204).send(null);
  });

  // ---- virtual servers ----
  r.get('/api/admin/servers', {
    config: access,
    schema: { tags: ['admin-servers'], summary: 'Alle virtuellen Server (Suche: VM-ID, Betriebssystem, Besitzer; Filter: Status; seitenweise, sortierbar)', security, querystring: AdminServerListQuery, response: { 200: AdminServerPage, ...errors } },
  }, async (req) => findAdminServers(deps, req.query));

  u.post('/api/admin/servers', {
    config: access,
    schema: {
      tags: ['admin-servers'],
      summary: 'Virtuellen Server anlegen: prüft Kapazität, reserviert IP und VM-ID, startet die Einrichtung',
      security, body: CreateServerInput, response: { 201: AdminServerRow, 404: ApiError, 409: ApiError, ...errors },
    },
  }, async (req, reply) => {
    // The server is built by a durable job enqueued with it; its outcome is recorded on the server and its task.
    return reply.code(201).send(await createAdminServer(deps, req.user, req.body));
  });

  r.get('/api/admin/servers/:id', {
    config: access,
    schema: { tags: ['admin-servers'], summary: 'Server eines Kunden ansehen: Besitzer, Node, IP, Laufzeit, Vorgänge, Mitarbeiteraktionen', security, params: AdminServerIdParams, response: { 200: AdminServerDetail, 404: ApiError, ...errors } },
  }, async (req) => getStaffServer(deps, req.params.id));

  r.get('/api/admin/servers/:id/usage', {
    config: access,
    schema: { tags: ['admin-servers'], summary: 'Aktuelle Auslastung eines Servers', security, params: AdminServerIdParams, response: { 200: ServerUsage, 404: ApiError, 503: ApiError, ...errors } },
  }, async (req) => getStaffServerUsage(deps, req.params.id));

  u.post('/api/admin/servers/:id/power', {
    config: access,
    schema: { tags: ['admin-servers'], summary: 'Server starten, stoppen oder neu starten (wird mit dem Mitarbeiter protokolliert)', security, params: AdminServerIdParams, body: AdminPowerInput, response: { 200: PowerResult, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError, ...errors } },
  }, async (req) => staffPowerServer(deps, req.user, req.params.id, req.body));

  r.get('/api/admin/customers', {
    config: access,
    schema: { tags: ['admin-servers'], summary: 'Kunden für die Besitzer-Auswahl (Suche: Kundennummer, Benutzername, E-Mail; höchstens 20)', security, querystring: CustomerSearchQuery, response: { 200: CustomerOptionList, ...errors } },
  }, async (req) => findCustomerOptions(deps, req.query.search));
}
