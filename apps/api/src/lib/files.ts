import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Db, Tx } from '../db/client.ts';
import { files } from '../db/schema/index.ts';

/**
 * Uploaded files (docs/decisions/015): the type is decided by the bytes, never by the name or the
 * client's Content-Type; the bytes live in PostgreSQL so every instance serves them.
 */

/** What may be uploaded: images, PDF, and plain text such as log files. SVG and HTML never. */
export const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];
/** Types the browser may show as a preview (still sent as an attachment, through the same route). */
export const PREVIEW_TYPES: readonly AcceptedType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Control characters other than tab, line feed, form feed and carriage return mark a binary file. */
// eslint-disable-next-line no-control-regex
const BINARY_CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/;

const MARKUP_DOCUMENT = /^\uFEFF?\s*<(?:!doctype|html|head|body|svg|\?xml|script|iframe|object|embed)\b/i;

/** The sniffed type of `bytes`, or null when it is none of the accepted ones. */
export async function sniffType(bytes: Buffer): Promise<AcceptedType | null> {
  if (bytes.length === 0) return null;
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return (ACCEPTED_TYPES as readonly string[]).includes(detected.mime) ? (detected.mime as AcceptedType) : null;
  // No magic number: accept valid UTF-8 text without binary control characters (logs, configs), but
  // not a markup document (HTML, SVG, XML): those are pages or images a browser would run, not logs.
  try {
    const text = utf8.decode(bytes);
    return BINARY_CONTROL.test(text) || MARKUP_DOCUMENT.test(text) ? null : 'text/plain';
  } catch {
    return null;
  }
}

/**
 * A safe file name for Content-Disposition: no path, no control characters, at most 120 characters.
 * The name is only ever a label: storage uses the random id.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001F\u007F"<>|*?:]/g, '_').replace(/^\.+/, '').trim().slice(0, 120);
  return cleaned || 'datei';
}

export async function storeFile(tx: Db | Tx, input: { name: string; contentType: AcceptedType; data: Buffer }): Promise<string> {
  const [row] = await tx.insert(files).values({
    name: input.name,
    contentType: input.contentType,
    size: input.data.length,
    sha256: crypto.createHash('sha256').update(input.data).digest('hex'),
    data: input.data,
  }).returning({ id: files.id });
  return row!.id;
}

export async function readFile(db: Db, id: string) {
  const [row] = await db.select({ name: files.name, contentType: files.contentType, size: files.size, data: files.data }).from(files).where(eq(files.id, id));
  return row ?? null;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): ASCII fallback plus the exact name. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
