import crypto from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Role } from '@hp/contract';
import { readEnv } from '../src/env.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { freshPglite, freshPostgres } from './databases.ts';
import { loadSecrets } from '../src/lib/secrets.ts';
import { buildApp } from '../src/app.ts';
import type { Mailer, MailMessage } from '../src/drivers/mail/mail.ts';
import { users } from '../src/db/schema/index.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { openSession } from '../src/modules/auth/sessions.ts';
import { createSimulatedHypervisor } from '../src/drivers/hypervisor/simulated/simulated.ts';
import { createSimulatedHosting } from '../src/drivers/hosting/simulated/simulated-hosting.ts';
import { simulatedPanelPath } from '../src/drivers/hosting/index.ts';
import type { HostingDriver } from '../src/drivers/hosting/hosting.ts';
import { createSimulatedRegistrar } from '../src/drivers/registrar/simulated/simulated-registrar.ts';
import type { RegistrarDriver } from '../src/drivers/registrar/registrar.ts';
import { createSimulatedStorage } from '../src/drivers/storage/simulated/simulated-storage.ts';
import type { StorageDriver } from '../src/drivers/storage/storage.ts';
import { createPaymentProvider } from '../src/drivers/payments/index.ts';
import { createRealtime } from '../src/drivers/realtime/index.ts';
import type { PaymentProvider } from '../src/drivers/payments/payments.ts';
import { createVatCheck } from '../src/drivers/vat/index.ts';
import type { VatCheck } from '../src/drivers/vat/vat-check.ts';

export class MemoryMailer implements Mailer {
  readonly kind = 'outbox' as const;
  sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
  /** The last 4-character code mailed to the address. */
  lastCode(to: string): string | undefined {
    const mail = [...this.sent].reverse().find((m) => m.to === to.toLowerCase() || m.to === to);
    return mail?.text.match(/lautet: ([A-Z0-9]{4})/)?.[1];
  }
  countTo(to: string) {
    return this.sent.filter((m) => m.to === to).length;
  }
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  mail: MemoryMailer;
  kind: 'pglite' | 'postgres';
}

/** A fresh, migrated database: PGlite in memory, or a throwaway database on TEST_DATABASE_URL (copies of the run's migrated one). */
export async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { database: await freshPglite(), drop: async () => {} };
  const { url, drop } = await freshPostgres('hp_test');
  return { database: await openDatabase({ url }), drop };
}

export interface TestContextOptions {
  env?: NodeJS.ProcessEnv;
  payments?: (db: Database['db']) => PaymentProvider;
  /** Another hosting driver (e.g. ISPConfig against the fake panel) instead of the simulated one. */
  hosting?: (db: Database['db']) => HostingDriver;
  /** Another registrar (e.g. INWX against the fake server) instead of the simulated registry. */
  registrar?: (db: Database['db']) => RegistrarDriver;
  /** Another VAT-ID check (e.g. VIES against the fake) instead of the one VAT_CHECK chooses (simulated). */
  vatCheck?: VatCheck;
  /** Another storage driver (e.g. Nextcloud against the fake, or a wrapper) instead of the simulated one. */
  storage?: (db: Database['db']) => StorageDriver;
  /** Use this PostgreSQL database as it is (e.g. a throwaway cluster of the test) instead of a fresh one. */
  databaseUrl?: string;
  /** Capture the log at this level instead of silencing it. */
  log?: { level: string; stream: NodeJS.WritableStream };
  /** Extra routes or hooks, registered before the app is ready. */
  beforeReady?: (app: FastifyInstance) => void;
}

export async function createTestContext(kind: 'pglite' | 'postgres' = 'pglite', opts: TestContextOptions = {}): Promise<TestContext & { close: () => Promise<void> }> {
  const { database, drop } = opts.databaseUrl
    ? { database: await openDatabase({ url: opts.databaseUrl }), drop: async () => {} }
    : await freshDatabase(kind);
  const env = { ...readEnv({ ...process.env, VITEST: 'true', ...opts.env }), logLevel: opts.log?.level ?? 'silent', isTest: true };
  const secrets = await loadSecrets(database.db, undefined);
  const mail = new MemoryMailer();
  // Tests run the simulated hypervisor with short task durations.
  const hypervisor = createSimulatedHypervisor(database.db, { speed: 50 });
  const hosting = opts.hosting ? opts.hosting(database.db) : createSimulatedHosting(database.db, { speed: 50, panelUrl: `${env.publicUrl}${simulatedPanelPath}` });
  // Transfers of the simulated registry finish after 60 s / 50.
  const registrar = opts.registrar ? opts.registrar(database.db) : createSimulatedRegistrar(database.db, { speed: 50 });
  const payments = opts.payments ? opts.payments(database.db) : await createPaymentProvider(env, database.db, secrets);
  const vatCheck = opts.vatCheck ?? createVatCheck(env);
  const storage = opts.storage ? opts.storage(database.db) : createSimulatedStorage(database.db, { speed: 50 });
  const app = await buildApp({ db: database.db, mail, env, secrets, hypervisor, hosting, registrar, payments, vatCheck, storage, realtime: createRealtime(database), ...(opts.log ? { logStream: opts.log.stream } : {}) });
  opts.beforeReady?.(app);
  await app.ready();
  return {
    app, database, mail, kind,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
    },
  };
}

type Kind = 'pglite' | 'postgres';

/**
 * The databases the API suites run on in this pass (docs/decisions/025, "One database per pass"):
 * PostgreSQL when TEST_DATABASE_URL is set, else PGlite. `.ci/run` covers both: the Node 20 pass runs
 * on PostgreSQL, the Node 24 pass on PGlite, so every suite meets both engines in every CI run without
 * paying for both twice. HP_TEST_DATABASES=pglite,postgres runs both in one pass.
 */
export function databaseKinds(): Kind[] {
  const asked = (process.env.HP_TEST_DATABASES ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  if (asked.length) {
    for (const k of asked) {
      if (k !== 'pglite' && k !== 'postgres') throw new Error(`HP_TEST_DATABASES: unknown database ${k} (pglite, postgres)`);
      if (k === 'postgres' && !process.env.TEST_DATABASE_URL) throw new Error('HP_TEST_DATABASES names postgres, but TEST_DATABASE_URL is not set');
    }
    return [...new Set(asked as Kind[])];
  }
  return process.env.TEST_DATABASE_URL ? ['postgres'] : ['pglite'];
}

/**
 * Runs a suite once per database of this pass (databaseKinds).
 * The context is created once per suite; tests use unique names so they do not collide.
 */
export function describeEachDatabase(name: string, body: (ctx: () => TestContext, kind: 'pglite' | 'postgres') => void) {
  for (const kind of databaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let ctx: (TestContext & { close: () => Promise<void> }) | undefined;
      beforeAll(async () => {
        ctx = await createTestContext(kind);
      });
      afterAll(async () => {
        await ctx?.close();
      });
      body(() => ctx!, kind);
    });
  }
}

/**
 * The one database a fuzzer runs on: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. A fuzzer
 * tests input handling (parsing, schemas, error mapping), and PGlite is PostgreSQL's own engine, so a
 * second run on the other database repeats the same SQL with the same outcome at the price of minutes
 * (docs/decisions/025, "Fuzzers once"). Suites about concurrency, locks and pools still run on both.
 */
export const fuzzDatabase = (): 'pglite' | 'postgres' | null =>
  // HP_FUZZ=off: CI's second pass (Node 24), after the first pass fuzzed (decision 025, "Fuzzers once").
  process.env.HP_FUZZ === 'off' ? null : process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

let counter = 0;
export const uniqueName = (prefix = 'user') => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${crypto.randomBytes(2).toString('hex')}`;

export const STRONG_PASSWORD = 'Sicher!Passwort1';

/** Creates a verified account directly in the database and signs it in. */
// Test users with the default password share one argon2id hash (its own salt, computed once per worker): about
// 700 hashes a run, 16 ms of CPU each, bought nothing a test checks (issue 26). Registration, login and every
// password change still hash through the product's own code.
let defaultPasswordHash: Promise<string> | undefined;
const passwordHashFor = (password: string) =>
  (password === STRONG_PASSWORD ? (defaultPasswordHash ??= hashPassword(STRONG_PASSWORD)) : hashPassword(password));

export async function createUser(ctx: TestContext, opts: { role?: Role; password?: string } = {}) {
  const username = uniqueName(opts.role ?? 'customer');
  const password = opts.password ?? STRONG_PASSWORD;
  const [user] = await ctx.database.db.insert(users).values({
    username, email: `${username}@example.com`, role: opts.role ?? 'customer', passwordHash: await passwordHashFor(password), emailVerifiedAt: new Date(),
  }).returning();
  const secrets = ctx.app.deps.secrets;
  const session = await openSession(ctx.database.db, secrets, user!, 'test');
  return { user: user!, username, email: user!.email, password, token: session.token, refreshToken: session.refreshToken, auth: { authorization: `Bearer ${session.token}` } };
}
