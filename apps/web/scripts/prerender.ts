/**
 * Writes static HTML for every public page (dist/<path>/index.html) so content shows before any
 * JavaScript runs; the client then hydrates. dist/spa.html is the empty shell for client-only routes.
 * The server bundle stays in dist/.ssr (with the page template) for pages the API renders at request
 * time (the changelog, decision 016); dot directories are never served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prerenderedPaths } from '@hp/contract';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(webRoot, 'dist');
const ssrDir = path.join(dist, '.ssr');
const template = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const { renderDocument } = (await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href)) as typeof import('../src/prerender/entry-server.tsx');

fs.writeFileSync(path.join(ssrDir, 'template.html'), template);
fs.writeFileSync(path.join(dist, 'spa.html'), template.replace('<!--app-->', '').replace('<!--head-->', '<meta name="robots" content="noindex" />'));

for (const route of prerenderedPaths) {
  const page = await renderDocument(template, route);
  // The CSP allows no inline scripts; a prerendered page must not depend on one.
  if (/<script(?![^>]*\bsrc=)[^>]*>/.test(page)) throw new Error(`prerendered ${route} contains an inline script`);
  const out = route === '/' ? path.join(dist, 'index.html') : path.join(dist, route.slice(1), 'index.html');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, page);
}
console.log(`prerendered ${prerenderedPaths.length} pages`);
