import { describe, expect, it } from 'vitest';
import { filenameFromDisposition, formatSize } from './files.ts';

describe('filenameFromDisposition', () => {
  it('reads the quoted file name the invoice download sends', () => {
    expect(filenameFromDisposition('attachment; filename="Rechnung-RE-2026-000001.pdf"')).toBe('Rechnung-RE-2026-000001.pdf');
  });

  it('prefers the UTF-8 name (RFC 6266) over the plain one', () => {
    expect(filenameFromDisposition(`attachment; filename="Gutschrift.xml"; filename*=UTF-8''Gutschrift-%C3%84nderung.xml`)).toBe('Gutschrift-Änderung.xml');
  });

  it('accepts an unquoted name and drops path parts', () => {
    expect(filenameFromDisposition('attachment; filename=Rechnung-1.xml')).toBe('Rechnung-1.xml');
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
  });

  it('returns null without a usable name, so the caller falls back', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition('attachment; filename=".."')).toBeNull();
  });
});

describe('formatSize', () => {
  it('writes sizes the German way: bytes, whole kilobytes, megabytes with a decimal comma', () => {
    expect(formatSize(77)).toBe('77 B');
    expect(formatSize(34 * 1024 + 100)).toBe('34 KB');
    expect(formatSize(2.5 * 1024 * 1024)).toBe('2,5 MB');
  });
});
