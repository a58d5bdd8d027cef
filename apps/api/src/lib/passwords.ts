import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 iterations): about 20 ms here.
const options = { algorithm: 2 /* Argon2id; the package's enum is a const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password.normalize('NFC'), options);

export async function verifyPassword(stored: string, password: string) {
  try {
    return await verify(stored, password.normalize('NFC'));
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
