import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { matchesKnownRoute, messages } from '@hp/contract';

/**
 * Serves the built SPA: files from dist, prerendered public pages (dist/<path>/index.html),
 * the client shell (dist/spa.html) for client-rendered routes, and a real 404 for everything else.
 */
export async function webRoutes(app: FastifyInstance) {
  const root = app.deps.env.webDist;
  await app.register(fastifyStatic, { root, serve: false });

  const exists = (file: string) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };

  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const url = decodeURIComponent((req.url.split('?')[0] ?? '/').replace(/\+/g, '%2B'));
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: messages.notFound }, requestId: req.id });
    }
    if (url === '/shop/root-server' || url === '/shop/root-server/') return reply.redirect('/shop/kvm-server', 301);
    // Normalise and keep inside dist: no user input reaches a file path outside it.
    const rel = path.posix.normalize(url).replace(/^(\.\.(\/|$))+/, '').replace(/^\/+/, '');
    const file = path.join(root, rel);
    if (!file.startsWith(root)) return reply.status(404).send('Not found');

    if (rel && exists(file) && !rel.endsWith('.html')) {
      const immutable = rel.startsWith('assets/');
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      return reply.sendFile(rel);
    }
    reply.header('cache-control', 'no-cache');
    const route = '/' + rel.replace(/\/+$/, '');
    const prerendered = path.join(rel.replace(/\/+$/, ''), 'index.html');
    if (matchesKnownRoute(route) && exists(path.join(root, prerendered))) return reply.type('text/html').sendFile(prerendered);
    if (matchesKnownRoute(route) && exists(path.join(root, 'spa.html'))) return reply.type('text/html').sendFile('spa.html');
    if (exists(path.join(root, '404/index.html'))) return reply.status(matchesKnownRoute(route) ? 200 : 404).type('text/html').sendFile('404/index.html');
    return reply.status(404).type('text/plain').send('Oops! Diese Seite wurde nicht gefunden (die Weboberfläche wurde noch nicht gebaut: npm run build).');
  });
}
