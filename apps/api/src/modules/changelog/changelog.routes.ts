import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ChangelogDetail, ChangelogEntry, ChangelogIdParams, ChangelogInput, ChangelogList } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { sendPublic } from '../../http/public-cache.ts';
import { changelogAtom, createChangelogEntry, deleteChangelogEntry, getChangelogEntry, listChangelog, updateChangelogEntry } from './changelog.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError };
const security = [{ bearer: [] }];
const staff = { access: 'staff' as const };
const isPublic = { access: 'public' as const };

/** Changelog: everyone reads (also without an account); employee and owner write. */
export async function changelogRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;

  // From memory (http/public-cache.ts) with an ETag and a short public lifetime; a change drops them.
  const cache = app.publicCache;
  r.get('/api/changelog', { config: isPublic, schema: { tags: ['changelog'], summary: 'Alle Changelog-Einträge, neueste zuerst (ETag, 304)', response: { 200: ChangelogList } } },
    async (req, reply) => sendPublic(req, reply, await cachedChangelog(app), { sharedMaxAgeSeconds: 60 }));

  r.get('/api/changelog/:id', { config: isPublic, schema: { tags: ['changelog'], summary: 'Ein Eintrag mit älterem und neuerem Nachbarn (ETag, 304)', params: ChangelogIdParams, response: { 200: ChangelogDetail, 400: ApiError, 404: ApiError } } },
    async (req, reply) => sendPublic(req, reply, await cachedChangelogEntry(app, req.params.id), { sharedMaxAgeSeconds: 60 }));

  r.get('/changelog.atom', { config: isPublic, schema: { tags: ['changelog'], summary: 'Atom-Feed des Changelogs (ETag, 304)' } },
    async (req, reply) => {
      const feed = await cache.get('changelog', 'atom', () => listChangelog(deps), (list) => changelogAtom(list, { publicUrl: deps.env.publicUrl, companyName: deps.env.company.name }));
      return sendPublic(req, reply, feed, { sharedMaxAgeSeconds: 300, type: 'application/atom+xml; charset=utf-8' });
    });

  app.addHook('onSend', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && reply.statusCode < 400) cache.invalidate('changelog');
  });

  u.post('/api/staff/changelog', { config: staff, schema: { tags: ['changelog'], summary: 'Eintrag veröffentlichen', security, body: ChangelogInput, response: { 201: ChangelogEntry, ...errors } } },
    async (req, reply) => reply.code(201).send(await createChangelogEntry(deps, req.user, req.body)));

  u.put('/api/staff/changelog/:id', { config: staff, schema: { tags: ['changelog'], summary: 'Eintrag bearbeiten', security, params: ChangelogIdParams, body: ChangelogInput, response: { 200: ChangelogEntry, ...errors } } },
    async (req) => updateChangelogEntry(deps, req.params.id, req.body));

  u.delete('/api/staff/changelog/:id', { config: staff, schema: { tags: ['changelog'], summary: 'Eintrag löschen', security, params: ChangelogIdParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await deleteChangelogEntry(deps, req.params.id);
      return reply.code(204).send(null);
    });
}

/** The list as every instance keeps it (shared by the API route and the server-rendered page). */
export function cachedChangelog(app: FastifyInstance) {
  return app.publicCache.get('changelog', 'list', () => listChangelog(app.deps), (list) => JSON.stringify(ChangelogList.parse(list)));
}

/** One entry with its neighbours; an unknown id throws 404 and is not kept. */
export function cachedChangelogEntry(app: FastifyInstance, id: string) {
  // Ids are UUIDs in any letter case: one key per entry, not one per spelling.
  const key = id.toLowerCase();
  return app.publicCache.get('changelog', `entry:${key}`, () => getChangelogEntry(app.deps, key), (entry) => JSON.stringify(ChangelogDetail.parse(entry)));
}
