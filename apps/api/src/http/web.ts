import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { matchesKnownRoute, messages } from '@hp/contract';
import { cspNonceOf } from './security-headers.ts';
import { etagMatches, weakEtagOf } from './public-cache.ts';

/**
 * Serves the built SPA: files from dist, prerendered public pages (dist/<path>/index.html),
 * the client shell (dist/spa.html) for client-rendered routes, and a real 404 for everything else.
 */
export async function webRoutes(app: FastifyInstance) {
  const root = app.deps.env.webDist;
  // The build leaves .br and .gz next to each text file (apps/web/scripts/precompress.mjs): sent as they
  // are, so no request compresses a script again.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  const exists = (file: string) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };

  // Methods without a route (OPTIONS, DELETE /api/auth/me, POST /api/health …) answer like every other error.
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).type('application/json').send({ error: { code: 'NOT_FOUND', message: messages.notFound }, requestId: req.id }));

  // HTML is small and read often: cache it by path and modification time, then stamp the nonce in.
  const htmlCache = new Map<string, { mtimeMs: number; text: string; etag: string }>();
  const sendHtml = (req: FastifyRequest, reply: FastifyReply, rel: string, status = 200) => {
    const file = path.join(root, rel);
    const stat = fs.statSync(file);
    let cached = htmlCache.get(file);
    if (!cached || cached.mtimeMs !== stat.mtimeMs) {
      const text = fs.readFileSync(file, 'utf8');
      cached = { mtimeMs: stat.mtimeMs, text, etag: weakEtagOf(text) };
      htmlCache.set(file, cached);
    }
    // A validator for the page as built (the template before its nonce is stamped in; decision 041). A browser
    // that still holds this page gets a 304 without a Content-Security-Policy: it keeps the policy it stored
    // with the page, whose nonce is the one in its stored HTML. A 304 with a fresh policy would pair a new
    // nonce with the old page, and the page's scroll-lock styles would be refused.
    if (status === 200) {
      reply.header('etag', cached.etag);
      if (etagMatches(req.headers['if-none-match'], cached.etag)) {
        reply.raw.removeHeader('content-security-policy');
        return reply.status(304).send();
      }
    }
    const nonce = cspNonceOf(reply);
    return reply.status(status).type('text/html; charset=utf-8').send(cached.text.replace('__CSP_NONCE__', nonce));
  };

  // Only HTML needs a nonce: a fresh one per response, handed to the client (meta csp-nonce) for
  // libraries that inject <style> elements (Radix's scroll lock).
  app.get('/*', { config: { access: 'public', cspNonces: true }, schema: { hide: true } }, async (req, reply) => {
    const url = decodeURIComponent((req.url.split('?')[0] ?? '/').replace(/\+/g, '%2B'));
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: messages.notFound }, requestId: req.id });
    }
    if (url === '/shop/root-server' || url === '/shop/root-server/') return reply.redirect('/shop/kvm-server', 301);
    // Normalise and keep inside dist: no user input reaches a file path outside it.
    const rel = path.posix.normalize(url).replace(/^(\.\.(\/|$))+/, '').replace(/^\/+/, '');
    const file = path.join(root, rel);
    if (!file.startsWith(root)) return reply.status(404).send('Not found');

    // Build metadata (.vite/manifest.json) and other dot files are not for the public.
    const hidden = rel.split('/').some((segment) => segment.startsWith('.'));
    if (rel && !hidden && exists(file) && !rel.endsWith('.html')) {
      // Hashed build assets never change; other files (favicon, robots.txt) may change with a release.
      // Passed to sendFile: a header set before would be overwritten by its own default (max-age=0).
      const immutable = rel.startsWith('assets/');
      return reply.sendFile(rel, { immutable, maxAge: immutable ? 31_536_000_000 : 3_600_000 });
    }
    reply.header('cache-control', 'no-cache');
    const route = '/' + rel.replace(/\/+$/, '');
    const prerendered = path.join(rel.replace(/\/+$/, ''), 'index.html');
    if (matchesKnownRoute(route) && exists(path.join(root, prerendered))) return sendHtml(req, reply, prerendered);
    if (matchesKnownRoute(route) && exists(path.join(root, 'spa.html'))) return sendHtml(req, reply, 'spa.html');
    if (exists(path.join(root, '404/index.html'))) return sendHtml(req, reply, '404/index.html', matchesKnownRoute(route) ? 200 : 404);
    return reply.status(404).type('text/plain').send('Oops! Diese Seite wurde nicht gefunden (die Weboberfläche wurde noch nicht gebaut: npm run build).');
  });
}
