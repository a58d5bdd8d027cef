import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { messages } from '@hp/contract';
import { createTestContext, databaseKinds, type TestContext } from '../../test/harness.ts';
import { nodes, orders } from '../db/schema/index.ts';
import { constraintFailure, isDatabaseDown, safeDbError } from './db-errors.ts';

/** A driver error as node-postgres raises it, wrapped the way Drizzle wraps it. */
function wrapped(code: string, message = 'boom') {
  const cause = Object.assign(new Error(message), { code });
  return Object.assign(new Error(`Failed query: select * from users where email = $1\nparams: erika@example.com`), { cause });
}

describe('database error classification', () => {
  it('sees an outage through the Drizzle wrapper (ECONNREFUSED, 57P01, 57P03)', () => {
    for (const code of ['ECONNREFUSED', '57P01', '57P03']) expect(isDatabaseDown(wrapped(code)), code).toBe(true);
    expect(isDatabaseDown(wrapped('23505'))).toBe(false);
    expect(isDatabaseDown(new Error('something else'))).toBe(false);
  });

  it('turns constraint violations into 409 or 400 and keeps SQL parameters out of what it logs', () => {
    expect(constraintFailure(wrapped('23505'))).toEqual({ status: 409, code: 'ALREADY_EXISTS' });
    expect(constraintFailure(wrapped('23503'))).toEqual({ status: 409, code: 'CONFLICT' });
    expect(constraintFailure(wrapped('23502'))).toEqual({ status: 400, code: 'INVALID_VALUE' });
    expect(constraintFailure(wrapped('22003'))).toEqual({ status: 400, code: 'INVALID_VALUE' });
    expect(constraintFailure(new Error('plain'))).toBeUndefined();
    const logged = JSON.stringify(safeDbError(wrapped('23505', 'duplicate key value violates unique constraint "users_email_idx"')));
    expect(logged).toContain('23505');
    expect(logged).not.toContain('erika@example.com');
    expect(logged).not.toContain('select');
  });
});

for (const kind of databaseKinds()) {
  describe(`constraint errors that no service handles [${kind}]`, () => {
    let ctx: TestContext & { close: () => Promise<void> };
    const log: string[] = [];
    beforeAll(async () => {
      const stream = new PassThrough();
      stream.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
      ctx = await createTestContext(kind, {
        log: { level: 'warn', stream },
        // Routes that let the database's refusal escape, as a forgotten case in a service would.
        beforeReady: (app) => {
          app.post('/api/test/foreign-key', { config: { access: 'public' } }, async () => {
            await app.db.insert(orders).values({
              userId: crypto.randomUUID(), kind: 'new', nodeId: 999_999, osFamily: 'linux', os: 'Debian 12', cpuCores: 1, ramGb: 1, storageGb: 25, months: 1,
              holdUntil: new Date(), amountCents: 1, netCents: 1, vatCents: 0, paymentProvider: 'simulated',
            });
            return {};
          });
          app.post('/api/test/unique', { config: { access: 'public' } }, async () => {
            const name = `dup-${crypto.randomBytes(4).toString('hex')}`;
            await app.db.insert(nodes).values({ name, host: 'h', cpuCores: 1, ramGb: 1, storageGb: 1 });
            await app.db.insert(nodes).values({ name: name.toUpperCase(), host: 'h', cpuCores: 1, ramGb: 1, storageGb: 1 });
            return {};
          });
          app.post('/api/test/out-of-range', { config: { access: 'public' } }, async () => {
            await app.db.execute(sql`select ${'99999999999'}::int4`);
            return {};
          });
        },
      });
    });
    afterAll(async () => ctx?.close());

    it('answers a foreign-key violation with a German 409, never 500', async () => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/test/foreign-key' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({ code: 'CONFLICT', message: messages.conflictingChange });
    });

    it('answers a unique violation with 409 and a value out of range with 400', async () => {
      const unique = await ctx.app.inject({ method: 'POST', url: '/api/test/unique' });
      expect(unique.statusCode).toBe(409);
      expect(unique.json().error).toEqual({ code: 'ALREADY_EXISTS', message: messages.alreadyExists });
      const range = await ctx.app.inject({ method: 'POST', url: '/api/test/out-of-range' });
      expect(range.statusCode).toBe(400);
      expect(range.json().error.message).toBe(messages.invalidInput);
    });

    it('logs the refusal without the SQL or its parameters', async () => {
      await ctx.app.inject({ method: 'POST', url: '/api/test/foreign-key' });
      const lines = log.filter((l) => l.includes('database constraint refused'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toMatch(/insert into|params:|Debian 12/i);
        expect(line).toMatch(/"sqlState":"2\d{4}"/);
      }
    });
  });
}
