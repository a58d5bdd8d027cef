import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, ChangelogDetail, ChangelogEntry, ChangelogIdParams, ChangelogInput, ChangelogList } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
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

  // Like every API answer, no-store (review item 17: fresh over cacheable); the list is one indexed query.
  r.get('/api/changelog', { config: isPublic, schema: { tags: ['changelog'], summary: 'Alle Changelog-Einträge, neueste zuerst', response: { 200: ChangelogList } } },
    async () => listChangelog(deps));

  r.get('/api/changelog/:id', { config: isPublic, schema: { tags: ['changelog'], summary: 'Ein Eintrag mit älterem und neuerem Nachbarn', params: ChangelogIdParams, response: { 200: ChangelogDetail, 400: ApiError, 404: ApiError } } },
    async (req) => getChangelogEntry(deps, req.params.id));

  r.get('/changelog.atom', { config: isPublic, schema: { tags: ['changelog'], summary: 'Atom-Feed des Changelogs' } },
    async (_req, reply) => {
      const feed = changelogAtom(await listChangelog(deps), { publicUrl: deps.env.publicUrl, companyName: deps.env.company.name });
      return reply.type('application/atom+xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(feed);
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
