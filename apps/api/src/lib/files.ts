import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
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

/** Control characters other than tab, line feed, form feed and carriage return mark a binary file. */
// eslint-disable-next-line no-control-regex
const BINARY_CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/;

const MARKUP_DOCUMENT = /^\uFEFF?\s*<(?:!doctype|html|head|body|svg|\?xml|script|iframe|object|embed)\b/i;

/** The sniffed type of `bytes`, or null when it is none of the accepted ones. */
export async function sniffType(bytes: Buffer): Promise<AcceptedType | null> {
  if (bytes.length === 0) return null;
  // A UTF-16 byte order mark looks like an MPEG audio frame to magic-number sniffing: text first.
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16 && isPlainText(bytes)) return 'text/plain';
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  if (detected) return (ACCEPTED_TYPES as readonly string[]).includes(detected.mime) ? (detected.mime as AcceptedType) : null;
  // No magic number: accept text without binary control characters (logs, configs) in UTF-8, or in
  // UTF-16 with its byte order mark (PowerShell's `>` writes that), but not a markup document (HTML,
  // SVG, XML): those are pages or images a browser would run, not logs.
  return isPlainText(bytes) ? 'text/plain' : null;
}

/**
 * Text without binary control characters that is not a markup document. UTF-8 is checked on the bytes
 * (node:buffer's isUtf8, then one pass for control bytes, which in UTF-8 only ever stand for themselves),
 * so a 10 MB log is never copied into a string; only its beginning is decoded for the markup check.
 */
function isPlainText(bytes: Buffer): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    const text = decodeUtf16(bytes);
    return text !== null && !BINARY_CONTROL.test(text) && !MARKUP_DOCUMENT.test(text);
  }
  if (!isUtf8(bytes) || hasBinaryControlByte(bytes)) return false;
  // The markup check looks at the start: skip the byte order mark and ASCII white space, then read 64 KB.
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (start < bytes.length && (bytes[start] === 0x20 || (bytes[start]! >= 0x09 && bytes[start]! <= 0x0d))) start++;
  const head = new TextDecoder('utf-8').decode(bytes.subarray(start, start + 64 * 1024));
  return !MARKUP_DOCUMENT.test(head);
}

function hasBinaryControlByte(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x20 ? b <= 0x08 || b === 0x0b || b >= 0x0e : b === 0x7f) return true;
  }
  return false;
}

function decodeUtf16(bytes: Buffer): string | null {
  try {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** File name extensions that fit each type; a name with another gets the type's own appended. */
const EXTENSIONS: Record<AcceptedType, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'text/plain': ['txt', 'log', 'csv', 'conf', 'cfg', 'ini', 'md', 'json', 'yaml', 'yml'],
};

const MAX_NAME = 120;

/**
 * A safe file name for Content-Disposition and the chat: no path; no control, bidi-override or
 * zero-width characters (a right-to-left override makes "rechnung\u202Efdp.bat" read as a PDF); at most
 * 120 characters, cut on whole characters with the extension kept; and an extension that fits the
 * detected type, so a text file named `.bat` or `.hta` is saved as `….bat.txt` and a GIF named `.html` as
 * `….html.gif`. The name is only ever a label: storage uses the random id.
 */
export function cleanFileName(name: string | undefined, type: AcceptedType): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\p{Cc}\p{Cf}\u2028\u2029"<>|*?:]/gu, '_').replace(/^[.\s_]+/, '').trim();
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 ? cleaned.slice(dot + 1).toLowerCase() : '';
  const fits = EXTENSIONS[type].includes(ext);
  const stem = Array.from(fits ? cleaned.slice(0, dot) : cleaned);
  const suffix = `.${fits ? ext : EXTENSIONS[type][0]}`;
  const kept = stem.slice(0, MAX_NAME - suffix.length).join('').trim();
  return `${kept || 'datei'}${suffix}`;
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
