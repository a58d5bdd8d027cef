import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const pglite = await openDatabase({ dataDir: 'memory://' });
  if (pglite.listenVia.kind !== 'pglite') throw new Error('expected PGlite');
  const image = await pglite.listenVia.client.dumpDataDir('none');
  await pglite.close();
  const imageFile = path.join(os.tmpdir(), `hp-test-pglite-${process.pid}-${crypto.randomBytes(3).toString('hex')}.tar`);
  fs.writeFileSync(imageFile, Buffer.from(await image.arrayBuffer()));
  project.provide('pgliteImage', imageFile);

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
  project.provide('postgresTemplate', template);
  process.stdout.write(`test databases migrated once in ${Date.now() - started} ms (PGlite image${template ? ` and PostgreSQL template ${template}` : ''})\n`);

  return async () => {
    fs.rmSync(imageFile, { force: true });
    if (base && template) {
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`drop database if exists ${template} with (force)`).catch(() => {});
      await admin.end();
    }
  };
}
