/**
 * Writes static HTML for every public page (dist/<path>/index.html) so content shows before any
 * JavaScript runs; the client then hydrates. dist/spa.html is the empty shell for client-only routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prerenderedPaths } from '@hp/contract';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(webRoot, 'dist');
const template = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const { render } = (await import(pathToFileURL(path.join(webRoot, 'dist-ssr/entry-server.js')).href)) as typeof import('../src/prerender/entry-server.tsx');

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

fs.writeFileSync(path.join(dist, 'spa.html'), template.replace('<!--app-->', '').replace('<!--head-->', '<meta name="robots" content="noindex" />'));

for (const route of prerenderedPaths) {
  const { html, head } = await render(route);
  let page = template.replace('<!--app-->', html);
  if (head.title) page = page.replace(/<title>.*?<\/title>/, `<title>${escape(head.title)}</title>`);
  page = page.replace('<!--head-->', head.description ? `<meta name="description" content="${escape(head.description)}" />` : '<meta name="description" content="Root Server, Webhosting und Cloud-Speicher aus Frankfurt am Main." />');
  // The CSP allows no inline scripts; a prerendered page must not depend on one.
  if (/<script(?![^>]*\bsrc=)[^>]*>/.test(page)) throw new Error(`prerendered ${route} contains an inline script`);
  const out = route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, page);
}
fs.rmSync(path.join(webRoot, 'dist-ssr'), { recursive: true, force: true });
console.log(`prerendered ${prerenderedPaths.length} pages`);
