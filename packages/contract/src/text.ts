import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * Characters nobody types into a name or an address but that change how text is shown: C0/C1 controls,
 * format characters (bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, zero-width
 * characters, the BOM, soft hyphens) and line/paragraph separators. They would reach mails, PDFs and the
 * e-invoice, where a right-to-left override can make a name or an IBAN read differently.
 */
const CONTROL_SINGLE_LINE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
/** The same for multi-line text, where line breaks and tabs are wanted. */
const CONTROL_MULTI_LINE = /[\p{Cf}\u2028\u2029]|(?![\n\r\t])\p{Cc}/u;

export const hasControlCharacters = (value: string, opts: { multiline?: boolean } = {}) =>
  (opts.multiline ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE).test(value);

/** A string schema refusing control characters with a German message; add trims and limits after it. */
export const plainText = (opts: { multiline?: boolean; error?: string } = {}) =>
  z.string(opts.error ? { error: opts.error } : undefined).refine((v) => !hasControlCharacters(v, opts), { error: messages.controlCharacters });
