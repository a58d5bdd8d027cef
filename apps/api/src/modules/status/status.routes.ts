import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiError,
  CreateIncidentInput,
  CreateIncidentUpdateInput,
  CreateMaintenanceInput,
  CreateServiceInput,
  StatusIdParams,
  StatusIncident,
  StatusMaintenance,
  StatusPageData,
  StatusService,
  UpdateMaintenanceInput,
  UpdateServiceInput,
} from '@hp/contract';
import {
  addIncidentUpdate,
  createIncident,
  createMaintenance,
  createService,
  deleteIncident,
  deleteMaintenance,
  deleteService,
  findStatusPage,
  updateMaintenance,
  updateService,
} from './status.service.ts';
import { sendPublic } from '../../http/public-cache.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const tags = ['status'];
const security = [{ bearer: [] }];

/** The public status data from memory, as GET /api/status answers it (also rendered into /status). */
export function cachedStatusPage(app: FastifyInstance) {
  return app.publicCache.get('status', 'page', () => findStatusPage(app.deps), (page) => JSON.stringify(StatusPageData.parse(page)));
}

/** The public status page and its management by staff (employee or owner). */
export async function statusRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  // From memory (http/public-cache.ts): no query until staff change something, with an ETag and a short
  // public lifetime a CDN may keep. Any successful change below drops the entry before it is answered.
  r.get('/api/status', {
    config: { access: 'public' },
    schema: { tags, summary: 'Systemstatus: Gesamtstatus, Dienste, Störungen und Wartungen (ETag, 304)', response: { 200: StatusPageData } },
  }, async (req, reply) => sendPublic(req, reply, await cachedStatusPage(app), { sharedMaxAgeSeconds: 15 }));
  app.addHook('onSend', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && reply.statusCode < 400) app.publicCache.invalidate('status');
  });

  // ---- services ----
  r.post('/api/status/services', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Dienst anlegen', security, body: CreateServiceInput, response: { 201: StatusService, 409: ApiError, ...errors } },
  }, async (req, reply) => reply.code(201).send(await createService(deps, req.body)));

  r.patch('/api/status/services/:id', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Dienst umbenennen oder seinen Status setzen', security, params: StatusIdParams, body: UpdateServiceInput, response: { 200: StatusService, 409: ApiError, ...errors } },
  }, async (req) => updateService(deps, req.params.id, req.body));

  r.delete('/api/status/services/:id', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Dienst löschen', security, params: StatusIdParams, response: { 204: z.null(), ...errors } },
  }, async (req, reply) => {
    await deleteService(deps, req.params.id);
    return reply.code(204).send(null);
  });

  // ---- incidents ----
  r.post('/api/status/incidents', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Störung melden (optional mit erster Meldung)', security, body: CreateIncidentInput, response: { 201: StatusIncident, ...errors } },
  }, async (req, reply) => reply.code(201).send(await createIncident(deps, req.body)));

  r.post('/api/status/incidents/:id/updates', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Update zu einer Störung hinzufügen (setzt deren Status)', security, params: StatusIdParams, body: CreateIncidentUpdateInput, response: { 201: StatusIncident, ...errors } },
  }, async (req, reply) => reply.code(201).send(await addIncidentUpdate(deps, req.params.id, req.body)));

  r.delete('/api/status/incidents/:id', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Störung mit allen Updates löschen', security, params: StatusIdParams, response: { 204: z.null(), ...errors } },
  }, async (req, reply) => {
    await deleteIncident(deps, req.params.id);
    return reply.code(204).send(null);
  });

  // ---- maintenances ----
  r.post('/api/status/maintenances', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Wartung planen (Ende ohne Angabe: Beginn + 1 Stunde)', security, body: CreateMaintenanceInput, response: { 201: StatusMaintenance, ...errors } },
  }, async (req, reply) => reply.code(201).send(await createMaintenance(deps, req.body)));

  r.patch('/api/status/maintenances/:id', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Wartung ändern (z. B. ihren Status)', security, params: StatusIdParams, body: UpdateMaintenanceInput, response: { 200: StatusMaintenance, ...errors } },
  }, async (req) => updateMaintenance(deps, req.params.id, req.body));

  r.delete('/api/status/maintenances/:id', {
    config: { access: 'staff' },
    schema: { tags, summary: 'Wartung löschen', security, params: StatusIdParams, response: { 204: z.null(), ...errors } },
  }, async (req, reply) => {
    await deleteMaintenance(deps, req.params.id);
    return reply.code(204).send(null);
  });
}
