import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next.ts';

describe('safeNext (?next= after login and verification)', () => {
  it('keeps the shop and the portal', () => {
    for (const next of ['/shop', '/shop/kvm-server', '/shop/webhosting?plan=pro', '/shop?plan=pro', '/dashboard', '/dashboard/', '/dashboard?tab=1', '/dashboard/servers/1']) {
      expect(safeNext(next), next).toBe(next);
    }
  });
  it('refuses everything that could lead elsewhere', () => {
    for (const next of [null, '', 'https://evil.example/shop', '//evil.example/shop', '/shop//evil.example', '/\\evil.example', '/shop/\\evil.example', '/shop\\..\\x', '/dashboardx', '/shopping', '/admin', 'shop', 'javascript:alert(1)']) {
      expect(safeNext(next), String(next)).toBeNull();
    }
  });
});
