import type { FastifyInstance } from 'fastify';
import { ApiError, PowerInput, PowerResult, ServerDetail, ServerIdParams, ServerList, ServerUsage, UsageHistory, UsageHistoryQuery } from '@hp/contract';
import { firewallRoutes } from './firewall.routes.ts';
import { backupsRoutes } from './backups.routes.ts';
import { softwareRoutes } from './software.routes.ts';
import { settingsRoutes } from './settings.routes.ts';
import { consoleRoutes } from './console.routes.ts';
import { signedInRoutes } from '../../http/auth.ts';
import { getServerDetail, getServerUsage, getUsageHistory, listServers, powerServer, restartServer } from './servers.service.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };

/** The customer's own (and shared) servers. Ownership is checked in every service call. */
export async function serverRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const base = { config: { access: 'customer' as const } };

  u.get('/api/servers', { ...base, schema: { tags: ['servers'], summary: 'Meine Server', security: [{ bearer: [] }], response: { 200: ServerList, ...errors } } },
    async (req) => ({ servers: await listServers(deps, req.user) }));

  u.get('/api/servers/:id', { ...base, schema: { tags: ['servers'], summary: 'Serverdetails', security: [{ bearer: [] }], params: ServerIdParams, response: { 200: ServerDetail, ...errors } } },
    async (req) => getServerDetail(deps, req.user, req.params.id));

  u.get('/api/servers/:id/status', { ...base, schema: { tags: ['servers'], summary: 'Live-Status und Auslastung (für das 2-s-Polling)', security: [{ bearer: [] }], params: ServerIdParams, response: { 200: ServerUsage, ...errors } } },
    async (req) => getServerUsage(deps, req.user, req.params.id));

  u.get('/api/servers/:id/usage', { ...base, schema: { tags: ['servers'], summary: 'Auslastungsverlauf für Diagramme', security: [{ bearer: [] }], params: ServerIdParams, querystring: UsageHistoryQuery, response: { 200: UsageHistory, ...errors } } },
    async (req) => getUsageHistory(deps, req.user, req.params.id, req.query.timeframe));

  u.post('/api/servers/:id/power', { ...base, schema: { tags: ['servers'], summary: 'Server starten oder stoppen', security: [{ bearer: [] }], params: ServerIdParams, body: PowerInput, response: { 202: PowerResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await powerServer(deps, req.user, req.params.id, req.body.action)));

  u.post('/api/servers/:id/restart', { ...base, schema: { tags: ['servers'], summary: 'Server neu starten', security: [{ bearer: [] }], params: ServerIdParams, response: { 202: PowerResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await restartServer(deps, req.user, req.params.id)));

  // The server's tabs, one plugin each.
  await app.register(firewallRoutes);
  await app.register(backupsRoutes);
  await app.register(softwareRoutes);
  await app.register(settingsRoutes);
  await app.register(consoleRoutes);
}
