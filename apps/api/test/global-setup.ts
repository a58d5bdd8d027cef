import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';

/**
 * Runs once per `vitest run`, before any test file: migrates one database of each kind and hands it to
 * the workers, which copy it instead of migrating their own (docs/decisions/025). The copy is the real
 * schema: the same committed migrations, applied in the same order, once.
 * - PGlite: a migrated in-memory cluster dumped as an uncompressed tar file; every test database loads it.
 * - PostgreSQL (TEST_DATABASE_URL): a template database; every test database is `create database … template`.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImage: string;
    postgresTemplate: string;
    apiBuild: string;
  }
}

interface Migrated {
  imageFile: string;
  template: string;
  users: number;
}

/**
 * The `api` and `isolated` projects both name this setup; Vitest runs it once per project, in the one main
 * process. The migrated databases are made once and shared, and removed after the last project's teardown.
 */
const shared = globalThis as typeof globalThis & { hpMigrated?: Promise<Migrated> };

async function migrate(): Promise<Migrated> {
  const pglite = await openDatabase({ dataDir: 'memory://' });
  if (pglite.listenVia.kind !== 'pglite') throw new Error('expected PGlite');
  // The app's database is `postgres`; the two template databases are never used by a test (nothing creates a
  // database on PGlite) but made up 600 of the image's 1,400 files and 15 of its 44 MB, which every test
  // database unpacked again: an open costs about a third less CPU without them.
  for (const q of ['alter database template0 is_template false', 'drop database template0', 'alter database template1 is_template false', 'drop database template1', 'checkpoint']) {
    await pglite.listenVia.client.query(q);
  }
  const image = await pglite.listenVia.client.dumpDataDir('none');
  await pglite.close();
  const imageFile = path.join(os.tmpdir(), `hp-test-pglite-${process.pid}-${crypto.randomBytes(3).toString('hex')}.tar`);
  fs.writeFileSync(imageFile, Buffer.from(await image.arrayBuffer()));

  const base = process.env.TEST_DATABASE_URL;
  let template = '';
  if (base) {
    const { default: pg } = await import('pg');
    template = `hp_tpl_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${template}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${template}`;
    const database = await openDatabase({ url: url.toString() });
    // No connection may stay open: PostgreSQL copies a template only while nobody is connected to it.
    await database.close();
  }
  return { imageFile, template, users: 0 };
}

async function dropMigrated({ imageFile, template }: Migrated) {
  fs.rmSync(imageFile, { force: true });
  const base = process.env.TEST_DATABASE_URL;
  if (base && template) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`drop database if exists ${template} with (force)`).catch(() => {});
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const reused = shared.hpMigrated !== undefined;
  shared.hpMigrated ??= migrate();
  const migrated = await shared.hpMigrated;
  migrated.users += 1;
  project.provide('pgliteImage', migrated.imageFile);
  project.provide('postgresTemplate', migrated.template);

  // The API compiled from the current sources, as `npm start` runs it, for the tests that start real API
  // processes (crash tests, two instances): no TypeScript loader per start, which cost each start 1–3 s
  // of CPU. A folder of this run's own (about 0.5 s), so dist/ and other runs are left alone.
  const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const apiBuild = path.join(apiRoot, `dist-test-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  if (project.name === 'api') {
    execFileSync(process.execPath, [path.join(apiRoot, 'scripts/build.mjs')], { env: { ...process.env, API_BUILD_DIR: apiBuild }, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  project.provide('apiBuild', project.name === 'api' ? apiBuild : '');
  if (!reused) process.stdout.write(`test databases migrated once in ${Date.now() - started} ms (PGlite image${migrated.template ? ` and PostgreSQL template ${migrated.template}` : ''})\n`);

  return async () => {
    fs.rmSync(apiBuild, { recursive: true, force: true });
    migrated.users -= 1;
    if (migrated.users === 0) {
      shared.hpMigrated = undefined;
      await dropMigrated(migrated);
    }
  };
}
