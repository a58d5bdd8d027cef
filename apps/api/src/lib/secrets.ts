import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema/index.ts';

export interface Secrets {
  jwtKey: Uint8Array;
  /** Key for the HMAC of one-time codes, refresh tokens and e-mail throttling keys. */
  hmacKey: Buffer;
}

/** JWT_SECRET wins; otherwise a random installation secret is generated once and kept in the database. */
export async function loadSecrets(db: Db, configured?: string): Promise<Secrets> {
  let master = configured;
  if (!master) {
    const generated = crypto.randomBytes(32).toString('hex');
    await db.insert(settings).values({ key: 'master_secret', value: generated }).onConflictDoNothing();
    const [row] = await db.select().from(settings).where(eq(settings.key, 'master_secret'));
    master = row!.value;
  }
  const derive = (label: string) => crypto.createHmac('sha256', master!).update(label).digest();
  return { jwtKey: new Uint8Array(derive('jwt-hs256')), hmacKey: derive('hmac') };
}

export const hmac = (key: Buffer, value: string) => crypto.createHmac('sha256', key).update(value).digest('hex');

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Uniform over A-Z0-9 from the CSPRNG (randomInt rejects biased samples). */
export function randomCode(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return out;
}

export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');

export function safeEqualHex(a: string, b: string) {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
