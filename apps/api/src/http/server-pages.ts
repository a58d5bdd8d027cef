import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyReply } from 'fastify';
import { cspNonceOf } from './security-headers.ts';

/** Data a page is rendered with, as the web's query cache holds it (apps/web/src/app/initial-data.ts). */
export interface InitialQuery {
  key: readonly unknown[];
  data?: unknown;
  error?: { status: number; code: string; message: string };
  /** When the data was read (ms), for pages that show it. */
  updatedAt?: number;
}

/** The part of the web's server bundle (apps/web/src/prerender/entry-server.tsx) the API uses. */
export interface ServerBundle {
  renderDocument(template: string, url: string, queries?: readonly InitialQuery[]): Promise<string>;
  changelogKeys: { list: readonly unknown[]; entry: (id: string) => readonly unknown[] };
  statusKeys: { page: readonly unknown[] };
}

/**
 * Pages rendered per request (decision 016) with the web's own React components: the server bundle and
 * the page template that the web build leaves in dist/.ssr (a dot directory, never served). A rendered
 * document is reused while route and data are byte-identical (≤ 200 kept), so an unchanged page costs
 * its queries and no React render, and concurrent requests for a new one share its render; the data itself
 * is read fresh on every request by the caller.
 */
export function serverPages(webDist: string) {
  let loading: Promise<{ ssr: ServerBundle; template: string } | null> | null = null;
  const load = () => {
    loading ??= (async () => {
      const entry = path.join(webDist, '.ssr', 'entry-server.js');
      const templateFile = path.join(webDist, '.ssr', 'template.html');
      if (!fs.existsSync(entry) || !fs.existsSync(templateFile)) return null;
      const ssr = (await import(pathToFileURL(entry).href)) as ServerBundle;
      return { ssr, template: fs.readFileSync(templateFile, 'utf8') };
    })().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  // A promise per key: requests that arrive together for a new version of a page (many readers of the
  // status page right after staff post an incident) share one render instead of each rendering it.
  const rendered = new Map<string, Promise<string>>();

  return {
    /** The bundle, or null when the web is not built (then the caller serves the client shell). */
    bundle: async () => (await load())?.ssr ?? null,
    async render(route: string, queries: readonly InitialQuery[]): Promise<string | null> {
      const loaded = await load();
      if (!loaded) return null;
      const key = `${route}\n${JSON.stringify(queries)}`;
      let html = rendered.get(key);
      if (html === undefined) {
        html = loaded.ssr.renderDocument(loaded.template, route, queries);
        if (rendered.size >= 200) rendered.delete(rendered.keys().next().value!);
        rendered.set(key, html);
        // A failed render is not kept: the next request tries again.
        html.catch(() => {
          if (rendered.get(key) === html) rendered.delete(key);
        });
      }
      return html;
    },
    /** Sends a rendered page, or the client shell (spa.html) when the web has no server bundle. */
    send(reply: FastifyReply, html: string | null, status = 200) {
      const nonce = cspNonceOf(reply);
      reply.header('cache-control', 'no-cache');
      if (html !== null) return reply.status(status).type('text/html; charset=utf-8').send(html.replace('__CSP_NONCE__', nonce));
      const shell = path.join(webDist, 'spa.html');
      if (fs.existsSync(shell)) return reply.status(status).type('text/html; charset=utf-8').send(fs.readFileSync(shell, 'utf8').replace('__CSP_NONCE__', nonce));
      return reply.status(404).type('text/plain').send('Oops! Diese Seite wurde nicht gefunden (die Weboberfläche wurde noch nicht gebaut: npm run build).');
    },
  };
}
