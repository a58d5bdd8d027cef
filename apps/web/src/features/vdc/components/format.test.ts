import { describe, expect, it } from 'vitest';
import { formatBytes } from './format.ts';

describe('formatBytes', () => {
  it('names images below a megabyte in KB instead of "0 MB", and larger ones in binary units', () => {
    expect(formatBytes(36_864)).toBe('36 KB');
    expect(formatBytes(1)).toBe('1 KB');
    expect(formatBytes(0)).toBe('0 MB');
    expect(formatBytes(5 * 1024 ** 2 + 512 * 1024)).toBe('5,5 MB');
    expect(formatBytes(50 * 1024 ** 3)).toBe('50 GB');
  });
});
