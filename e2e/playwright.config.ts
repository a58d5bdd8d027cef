import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// One fresh installation per run: the config is evaluated again in every worker, so the data dir is
// chosen once and handed down through the environment.
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-e2e-'));
}
const port = Number(process.env.E2E_PORT ?? 5199);
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: '.',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // The journeys are bound by Chromium's CPU on two cores (docs/decisions/025). In the headless shell, on a quiet
  // machine: 3 workers 216–223 s, 4 workers 196 s, 5 workers 202 s for all 94 journeys.
  workers: Number(process.env.E2E_WORKERS ?? 4),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['../tools/test/slowest-playwright.ts']],
  use: {
    baseURL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // The portal honours "reduce motion" (styles.css: no animations or transitions). The journeys check
    // behaviour and accessibility, not motion: without it Chromium rasterised pulsing badges, spinners
    // and toast slides in software on the two shared cores for nothing (issue 26).
    reducedMotion: 'reduce',
    // A click waits for its element to take it; one that never can (a toast held open by the pointer resting on
    // it lies over the button) used to wait out the whole journey's timeout, two minutes, and said nothing of
    // where. 30 s is far beyond any action here, even on two loaded cores.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    // A trace records every action's snapshots while the journey runs: a quarter of the journeys' time on two
    // cores (issue 26). CI's clean clone is thrown away after the run, so nobody could open one there; locally
    // a failed journey keeps its trace. E2E_TRACE overrides it (e.g. E2E_TRACE=retain-on-failure in CI).
    trace: (process.env.E2E_TRACE ?? (process.env.CI ? 'off' : 'retain-on-failure')) as 'off' | 'on' | 'retain-on-failure' | 'on-first-retry',
    launchOptions: {
      // Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself runs headless
      // tests in): the same Blink and V8 without the full browser around them. The 42 journeys of four spec files
      // took 72 s wall and 128 CPU-s in it against 110 s and 209 CPU-s in the full browser (issue 26).
      // E2E_CHROMIUM_PATH picks another Chromium, e.g. /usr/bin/chromium.
      executablePath: process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...(process.env.E2E_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  outputDir: '../test-results/e2e',
  webServer: {
    // As shipped: the compiled server `npm start` runs (`npm run test:e2e` builds it first).
    command: 'node --enable-source-maps apps/api/dist/server.js',
    cwd: '..',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(port), DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'warn', NODE_ENV: 'production', PUBLIC_URL: baseURL, SIMULATED_SPEED: '10', TRUST_PROXY: 'true',
      // Issue 24: as if opted for (or above) the OSS threshold, so an EU consumer abroad pays their own country's VAT
      // (vat-prices.spec.ts); no other journey has such a consumer buy.
      VAT_EU_CONSUMERS: 'destination' },
  },
});
