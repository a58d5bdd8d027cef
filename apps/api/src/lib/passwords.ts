import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 iterations): about 20 ms here.
const options = { algorithm: 2 /* Argon2id; the package's enum is a const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashing is deliberately expensive. Running more hashes at once than there are spare cores would
 * starve every other request during a login flood, so hashes queue behind a small semaphore and leave
 * one core for the rest of the API.
 *
 * Once a queue has formed (a flood), each slot also rests after a hash: with PASSWORD_HASH_SHARE=0.5
 * (the default) as long as the hash took, so hashing takes at most half a core per slot and the other
 * requests keep their latency (issue 22). A login that finds no queue never waits; under a flood,
 * logins wait longer, which is what a flood should meet.
 */
/** A semaphore of `concurrency` slots whose slots rest after each task while others queue (see above). */
export function hashGate({ concurrency, share }: { concurrency: number; share: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  // The hash's own cost: the fastest run seen. A single run's time also holds the event loop's delay in
  // noticing it ended, which under load would stretch the rest far beyond the hash.
  let cost = Infinity;
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    const started = performance.now();
    try {
      return await task();
    } finally {
      cost = Math.min(cost, performance.now() - started);
      const rest = waiting.length ? cost * (1 / share - 1) : 0;
      const release = () => {
        running--;
        waiting.shift()?.();
      };
      if (rest >= 1) setTimeout(release, rest);
      else release();
    }
  };
}

const limited = hashGate({
  concurrency: Math.max(1, Number(process.env.PASSWORD_HASH_CONCURRENCY ?? (os.availableParallelism() - 1))),
  share: Math.min(1, Math.max(0.1, Number(process.env.PASSWORD_HASH_SHARE ?? 0.5))),
});

export const hashPassword = (password: string) => limited(() => hash(password.normalize('NFC'), options));

export async function verifyPassword(stored: string, password: string) {
  try {
    return await limited(() => verify(stored, password.normalize('NFC')));
  } catch {
    return false;
  }
}
let dummy: Promise<string> | undefined;
/** Spends the same time as a real check, so unknown user names cannot be told apart by timing. */
export async function burnPasswordCheck(password: string) {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummy, password);
}
