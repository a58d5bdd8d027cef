import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverPages } from './server-pages.ts';

// A stand-in for the web's server bundle (dist/.ssr/entry-server.js): counts its renders, takes a moment
// like a React render, and fails for the route "/boom".
const bundle = `
globalThis.__renders = 0;
export const changelogKeys = { list: ['changelog'], entry: (id) => ['changelog', id] };
export const statusKeys = { page: ['status', 'page'] };
export async function renderDocument(template, url, queries) {
  globalThis.__renders++;
  await new Promise((r) => setTimeout(r, 20));
  if (url === '/boom' && globalThis.__renders < 3) throw new Error('render failed');
  return template.replace('<!--app-->', url + ' ' + JSON.stringify(queries));
}
`;

describe('server-rendered pages (decision 016)', () => {
  let dir = '';
  const renders = () => (globalThis as unknown as { __renders: number }).__renders;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hp-ssr-'));
    await mkdir(join(dir, '.ssr'));
    await writeFile(join(dir, '.ssr', 'entry-server.js'), bundle);
    await writeFile(join(dir, '.ssr', 'template.html'), '<div id="root"><!--app--></div>');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders a page once for many requests that arrive together, and again only when its data changes', async () => {
    const pages = serverPages(dir);
    await pages.bundle();
    const before = renders();
    const data = [{ key: ['status', 'page'], data: { overallStatus: 'operational' }, updatedAt: 1 }];
    const htmls = await Promise.all(Array.from({ length: 50 }, () => pages.render('/status', data)));
    expect(new Set(htmls)).toEqual(new Set(['<div id="root">/status [{"key":["status","page"],"data":{"overallStatus":"operational"},"updatedAt":1}]</div>']));
    expect(renders() - before).toBe(1);
    await pages.render('/status', data);
    expect(renders() - before).toBe(1);
    await pages.render('/status', [{ ...data[0]!, updatedAt: 2 }]);
    expect(renders() - before).toBe(2);
  });

  it('does not keep a failed render: the next request renders again', async () => {
    const pages = serverPages(dir);
    await pages.bundle();
    (globalThis as unknown as { __renders: number }).__renders = 0;
    const results = await Promise.allSettled([pages.render('/boom', []), pages.render('/boom', [])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(renders()).toBe(1);
    await expect(pages.render('/boom', [])).rejects.toThrow('render failed');
    expect(await pages.render('/boom', [])).toBe('<div id="root">/boom []</div>');
  });

  it('without a web build there is no bundle and nothing to render', async () => {
    const pages = serverPages(join(dir, 'missing'));
    expect(await pages.bundle()).toBeNull();
    expect(await pages.render('/status', [])).toBeNull();
  });
});
