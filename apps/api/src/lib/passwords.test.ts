import { describe, expect, it } from 'vitest';
import { hashGate } from './passwords.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the password hash gate', () => {
  it('lets a lone hash start at once, and under a queue rests each slot as long as its hash ran (share 0.5)', async () => {
    const limited = hashGate({ concurrency: 1, share: 0.5 });
    const origin = performance.now();
    const starts: number[] = [];
    const task = () => limited(async () => {
      starts.push(performance.now() - origin);
      await sleep(40);
    });
    await Promise.all([task(), task(), task()]);
    // 40 ms of work, then 40 ms of rest (the fastest run so far), before each queued hash (timers fire late, never early).
    expect(starts[0]).toBeLessThan(30);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(78);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(78);
    // The last one found no queue: its slot is free again at once.
    const before = performance.now();
    let began = 0;
    await limited(async () => { began = performance.now(); });
    expect(began - before).toBeLessThan(30);
  });

  it('with share 1 runs queued hashes back to back, and never more at once than its slots', async () => {
    const limited = hashGate({ concurrency: 2, share: 1 });
    let inFlight = 0;
    let most = 0;
    const origin = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => limited(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(20);
      inFlight--;
    })));
    expect(most).toBe(2);
    expect(performance.now() - origin).toBeGreaterThanOrEqual(58);
  });
});
