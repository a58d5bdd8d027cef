import { defineConfig } from 'vitest/config';
import SlowestFiles from './tools/test/slowest-vitest.ts';
import ChangedFirstSequencer from './tools/test/changed-first-sequencer.ts';

// Vitest's default is one worker per core minus one: a single worker on this 2-core machine. Most test
// time is spent waiting (PostgreSQL, simulated task durations, child processes of the crash tests), so
// four workers keep both cores busy (docs/decisions/025). HP_TEST_WORKERS overrides it.
const workers = Number(process.env.HP_TEST_WORKERS ?? 4);

// Test files that replace a module (vi.mock) or need a DOM run isolated; the API's other files share
// their worker's module cache, which saves importing the whole app once per file (docs/decisions/025).
const isolated = ['apps/web/src/**/*.test.{ts,tsx}', 'apps/api/src/modules/auth/auth.limits.test.ts'];

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
    coverage: { provider: 'v8', include: ['apps/api/src/**/*.ts'], exclude: ['**/*.test.ts'] },
    projects: [
      { extends: true, test: { name: 'api', include: ['packages/**/*.test.ts', 'apps/api/**/*.test.ts', 'tools/test/**/*.test.ts'], exclude: isolated, isolate: false, globalSetup } },
      { extends: true, test: { name: 'isolated', include: isolated, globalSetup } },
    ],
  },
});
