import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const sha = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The toast library (sonner) injects its stylesheet as a <style> element at runtime. Instead of
 * allowing every inline style we allow exactly that stylesheet by hash (and the empty element it
 * creates first), read from the installed package so an upgrade cannot silently break it.
 */
export function allowedInlineStyleHashes(): string[] {
  try {
    const require = createRequire(import.meta.url);
    const file = require.resolve('sonner').replace(/index\.js$/, 'index.mjs');
    const source = fs.readFileSync(file, 'utf8');
    const match = source.match(/__insertCSS\(("(?:[^"\\]|\\.)*")\)/);
    if (!match?.[1]) return [];
    return [sha(''), sha(JSON.parse(match[1]) as string)];
  } catch {
    return [];
  }
}
