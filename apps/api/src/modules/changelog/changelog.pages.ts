import type { FastifyInstance } from 'fastify';
import { changelogMessages as m } from '@hp/contract';
import { serverPages, type InitialQuery } from '../../http/server-pages.ts';
import { AppError } from '../../http/errors.ts';
import { cachedChangelog, cachedChangelogEntry } from './changelog.routes.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const html = { config: { access: 'public' as const, cspNonces: true }, schema: { hide: true } };

/**
 * The public changelog pages, rendered on the server per request (decision 016): entries change at run
 * time, so the build-time prerender would be stale. Each request takes the entries from the public
 * cache (http/public-cache.ts: every API instance drops it when an entry changes) and renders the React page the browser then hydrates
 * from the embedded data. An unknown or malformed id answers 404 with "Eintrag nicht gefunden".
 */
export async function changelogPages(app: FastifyInstance) {
  const deps = app.deps;
  const pages = serverPages(deps.env.webDist);

  const list = async (route: string) => {
    const ssr = await pages.bundle();
    return ssr ? pages.render(route, [{ key: ssr.changelogKeys.list, data: (await cachedChangelog(app)).value }]) : null;
  };
  app.get('/changelog', html, async (_req, reply) => pages.send(reply, await list('/changelog')));
  app.get('/Changelog', html, async (_req, reply) => pages.send(reply, await list('/Changelog')));

  app.get<{ Params: { id: string } }>('/changelog/:id', html, async (req, reply) => {
    const ssr = await pages.bundle();
    const { id } = req.params;
    if (!ssr) return pages.send(reply, null);
    if (id === '') return pages.send(reply, await list('/changelog'));
    let queries: InitialQuery[];
    let status = 200;
    try {
      if (!uuid.test(id)) throw new AppError(404, 'NOT_FOUND', m.notFoundText);
      queries = [{ key: ssr.changelogKeys.entry(id), data: (await cachedChangelogEntry(app, id)).value }];
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode !== 404) throw err;
      status = 404;
      queries = [{ key: ssr.changelogKeys.entry(id), error: { status: 404, code: 'NOT_FOUND', message: m.notFoundText } }];
    }
    return pages.send(reply, await pages.render(`/changelog/${id}`, queries), status);
  });
}
