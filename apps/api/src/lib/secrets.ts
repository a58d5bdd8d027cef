import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema/index.ts';

export interface Secrets {
  jwtKey: Uint8Array;
  /** Key for the HMAC of one-time codes, refresh tokens and e-mail throttling keys. */
  hmacKey: Buffer;
  /** Key for encrypting TOTP seeds at rest. */
  encryptionKey: Buffer;
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
  return { jwtKey: new Uint8Array(derive('jwt-hs256')), hmacKey: derive('hmac'), encryptionKey: derive('aes-256-gcm') };
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

/** AES-256-GCM for secrets we must read back (TOTP seeds); the key derives from the master secret. */
export function encryptSecret(key: Buffer, plain: string) {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decryptSecret(key: Buffer, sealed: string) {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
}
