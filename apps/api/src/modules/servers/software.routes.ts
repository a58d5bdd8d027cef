import type { FastifyInstance } from 'fastify';
import { ApiError, ServerIdParams, SoftwareAppParams, SoftwareInstallInput, SoftwareList, TaskAccepted } from '@hp/contract';
import { listSoftware, startSoftwareTask } from './software.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/**
 * Installation tab: the fixed catalogue with the installed state read from the server, and install /
 * uninstall as background tasks (one operation per server at a time). Owner and shared users.
 */
export async function softwareRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const base = { config: { access: 'customer' as const } };
  const doc = (summary: string) => ({ tags: ['servers'], summary, security: [{ bearer: [] }] });

  u.get('/api/servers/:id/software', { ...base, schema: { ...doc('Software-Katalog mit Installationsstatus'), params: ServerIdParams, response: { 200: SoftwareList, ...errors } } },
    async (req) => listSoftware(deps, req.user, req.params.id));

  u.post('/api/servers/:id/software/:appId/install', { ...base, schema: { ...doc('Software installieren (MySQL/MongoDB-Zugangsdaten werden nicht gespeichert)'), params: SoftwareAppParams, body: SoftwareInstallInput.optional(), response: { 202: TaskAccepted, ...errors } } },
    async (req, reply) => reply.code(202).send(await startSoftwareTask(deps, req.user, req.params.id, req.params.appId, 'install', req.body ?? {})));

  u.post('/api/servers/:id/software/:appId/uninstall', { ...base, schema: { ...doc('Software deinstallieren'), params: SoftwareAppParams, response: { 202: TaskAccepted, ...errors } } },
    async (req, reply) => reply.code(202).send(await startSoftwareTask(deps, req.user, req.params.id, req.params.appId, 'uninstall')));
}
