// npm run bench:usable — how soon a prerendered page is usable on a slow phone, measured in Chromium itself
// (not Lighthouse's model): its network emulation (150 ms round trips, 1.6 Mbit/s down, 750 kbit/s up), 4× CPU,
// a cold cache per load. Prints the first paint and the moment every fieldset on the page is enabled (the
// forms stay disabled until React has hydrated them), medians of BENCH_LOADS loads (default 5).
// BENCH_COMPARE_DIST=/path/to/other/web/dist loads the same pages from a second server on that build, interleaved,
// for a before/after comparison on one machine (docs/decisions/042). Needs a build (npm run build).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const pages = (process.env.BENCH_PAGES ?? '/login,/register,/shop/webhosting').split(',');
const loads = Math.max(1, Number(process.env.BENCH_LOADS ?? 5));
const builds = [['dieser Build', path.resolve('apps/web/dist'), 5301]];
if (process.env.BENCH_COMPARE_DIST) builds.push(['Vergleich', path.resolve(process.env.BENCH_COMPARE_DIST), 5302]);

// Each server on a fresh embedded database of its own (PGlite), removed afterwards.
const dataDirs = builds.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'hp-usable-')));
const { DATABASE_URL: _unused, ...env } = process.env;
const servers = builds.map(([, dist, port], i) => spawn(process.execPath, ['apps/api/dist/server.js'], {
  env: { ...env, PORT: String(port), DATA_DIR: dataDirs[i], LOG_LEVEL: 'warn', NODE_ENV: 'production', WEB_DIST: dist },
  stdio: 'ignore',
}));
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

let browser;
try {
  for (const [, , port] of builds) {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://localhost:${port}/api/health`)).ok) break;
      } catch { /* not up yet */ }
      if (i > 120) throw new Error(`Server auf Port ${port} startet nicht`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell', args: ['--no-sandbox', '--disable-gpu'] });
  console.log(`Last ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${loads} Ladevorgänge je Seite und Build`);
  for (const pagePath of pages) {
    const results = new Map(builds.map(([name]) => [name, []]));
    for (let round = 0; round < loads; round++) {
      for (const [name, , port] of builds) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(`http://localhost:${port}${pagePath}`, { waitUntil: 'commit' });
        await page.waitForFunction(() => {
          const sets = [...document.querySelectorAll('fieldset')];
          return sets.length > 0 && sets.every((f) => !f.disabled);
        }, null, { polling: 20, timeout: 60_000 });
        const [paint, usable] = await page.evaluate(() => [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN, performance.now()]);
        results.get(name).push([paint, usable]);
        await context.close();
      }
    }
    for (const [name, r] of results) {
      console.log(`${pagePath.padEnd(18)} ${name.padEnd(12)} erste Darstellung ${Math.round(median(r.map((x) => x[0])))} ms, bedienbar nach ${Math.round(median(r.map((x) => x[1])))} ms (${r.map((x) => Math.round(x[1])).join(', ')})`);
    }
  }
} finally {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise((resolve) => {
    if (s.exitCode !== null) return resolve();
    s.once('exit', resolve);
    s.kill();
  })));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}
