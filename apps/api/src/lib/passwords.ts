import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 iterations): about 20 ms here.
const options = { algorithm: 2 /* Argon2id; the package's enum is a const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Hashing is deliberately expensive. Running more hashes at once than there are spare cores would
 * starve every other request during a login flood, so hashes queue behind a small semaphore and leave
 * one core for the rest of the API.
 */
const maxConcurrentHashes = Math.max(1, Number(process.env.PASSWORD_HASH_CONCURRENCY ?? (os.availableParallelism() - 1)));
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (running >= maxConcurrentHashes) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

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
