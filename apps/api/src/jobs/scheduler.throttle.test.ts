/** During a database outage the schedule claims fail every tick; the log says so once per few seconds (issue 21). */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import type { JobDeps } from './define.ts';
import { Scheduler } from './scheduler.ts';

describe('scheduler during a database outage', () => {
  it('logs the failed claims once per 5 s with the number held back, not once per schedule and tick', async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { error: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }), warn: () => {}, info: () => {} };
    const refused = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    // Started while the database was still up (the schedule rows exist), then it went away.
    const down = { execute: refused, insert: () => ({ values: () => ({ onConflictDoNothing: async () => {} }) }) } as unknown as Db;
    const scheduler = new Scheduler(down, () => ({ log }) as unknown as JobDeps, { owner: 'test' });
    for (const name of ['a', 'b', 'c', 'd']) scheduler.register({ name, everyMs: () => 1000, run: async () => {} });
    await scheduler.start();
    // Two seconds of ticks every 500 ms with four schedules: 16 failures.
    for (let i = 0; i < 4; i++) await scheduler.tick();
    await scheduler.stop();
    const claims = lines.filter((l) => l.msg === 'schedule claim failed');
    expect(claims).toHaveLength(1);
    expect(claims[0]!.obj).toMatchObject({ suppressed: 0 });
  });
});
