import type { FastifyInstance } from 'fastify';
import { serverPages } from '../../http/server-pages.ts';
import { cachedStatusPage } from './status.routes.ts';

const html = { config: { access: 'public' as const, cspNonces: true }, schema: { hide: true } };

/**
 * The public status page, rendered on the server per request (decision 016) from the public cache, as
 * the changelog is. The build-time prerender could only show a skeleton: the browser then loaded the page's
 * code and the data and drew the content late, a long blocking render on a phone (issue 22). Now the
 * services, incidents and maintenances are in the HTML, readable without JavaScript, and the browser
 * hydrates from the embedded data and refreshes it every minute as before.
 */
export async function statusPages(app: FastifyInstance) {
  const pages = serverPages(app.deps.env.webDist);
  app.get('/status', html, async (_req, reply) => {
    const ssr = await pages.bundle();
    if (!ssr) return pages.send(reply, null);
    const entry = await cachedStatusPage(app);
    // The answer of GET /api/status (its schema's output), not the service's own object.
    const data = JSON.parse(entry.body) as unknown;
    return pages.send(reply, await pages.render('/status', [{ key: ssr.statusKeys.page, data, updatedAt: entry.loadedAt }]));
  });
}
