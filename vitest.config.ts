import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFiles from './tools/test/slowest-vitest.ts';
import ChangedFirstSequencer from './tools/test/changed-first-sequencer.ts';

// Vitest's default is one worker per core minus one: a single worker on this 2-core machine. Most test
// time is spent waiting (PostgreSQL, simulated task durations, child processes of the crash tests), so
// four workers keep both cores busy (docs/decisions/025). HP_TEST_WORKERS overrides it.
const workers = Number(process.env.HP_TEST_WORKERS ?? 4);

// Test files share their worker's module cache (`isolate: false`), which saves importing the whole app, or
// React and the web app, once per file (docs/decisions/025). A file that replaces a module (vi.mock) would
// replace it for the files after it too, so such files run isolated; they are found by their text, so a new
// one cannot slip into a shared project.
const testFiles = (dir: string) =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.test\.tsx?$/.test(f) && !f.includes('node_modules')).map((f) => path.join(dir, f).split(path.sep).join('/'));
const replacesModules = (file: string) => /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(file, 'utf8'));
const isolated = ['apps/web/src', 'apps/api/src'].flatMap(testFiles).filter(replacesModules);

// Migrates one database of each kind per project and run; test files copy it (apps/api/test/global-setup.ts).
const globalSetup = ['apps/api/test/global-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: workers,
    reporters: ['default', new SlowestFiles()],
    // test:fast sets HP_CHANGED_FIRST: files next to changed ones first (tools/test/changed-first-sequencer.ts).
    ...(process.env.HP_CHANGED_FIRST ? { sequence: { sequencer: ChangedFirstSequencer } } : {}),
    env: { NODE_ENV: 'test' },
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by file content and config):
    // a second run, and CI's Node 24 pass after the first, skip most of the transform and import work (issue 26).
    experimental: { fsModuleCache: true },
    coverage: { provider: 'v8', include: ['apps/api/src/**/*.ts'], exclude: ['**/*.test.ts'] },
    projects: [
      { extends: true, test: { name: 'api', include: ['packages/**/*.test.ts', 'apps/api/**/*.test.ts', 'tools/test/**/*.test.ts'], exclude: isolated, isolate: false, globalSetup } },
      // The web app's component tests in jsdom; each file still gets its own document. The one store they share
      // beyond that, sonner's toasts, is emptied after every test (src/testing/shared-setup.ts).
      { extends: true, test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], exclude: isolated, isolate: false, setupFiles: ['apps/web/src/testing/shared-setup.ts'] } },
      { extends: true, test: { name: 'isolated', include: isolated, globalSetup } },
    ],
  },
});
