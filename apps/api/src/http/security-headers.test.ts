import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.ts';
import { simulatedPanelPath } from '../drivers/hosting/index.ts';

/** The values of one CSP directive. */
const directive = (csp: unknown, name: string) =>
  String(csp).split(';').map((d) => d.trim().split(/\s+/)).find(([n]) => n === name)?.slice(1) ?? [];

describe('security headers (helmet, built once at start)', () => {
  let ctx: TestContext & { close: () => Promise<void> };
  beforeAll(async () => {
    ctx = await createTestContext('pglite');
  });
  afterAll(async () => ctx?.close());

  it('an HTML route names a fresh style and script nonce per response, and its <style> carries the same one', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({ method: 'GET', url: simulatedPanelPath });
      expect(res.statusCode).toBe(200);
      const csp = res.headers['content-security-policy'];
      const style = directive(csp, 'style-src').filter((v) => v.startsWith("'nonce-"));
      const script = directive(csp, 'script-src').filter((v) => v.startsWith("'nonce-"));
      expect(style).toHaveLength(1);
      expect(script).toHaveLength(1);
      const nonce = style[0]!.slice("'nonce-".length, -1);
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(script[0]).not.toBe(style[0]);
      expect(res.body).toContain(`<style nonce="${nonce}">`);
      seen.add(nonce);
      // The rest of the policy is the global one.
      expect(directive(csp, 'script-src')).toEqual(["'self'", script[0]]);
      expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    }
    expect(seen.size).toBe(3);
  });

  it('an API route has the policy without nonces, and helmet\'s other headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/status' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('nonce-');
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin', 'cross-origin-resource-policy': 'same-origin', 'x-xss-protection': '0',
    });
    // HSTS only where the portal is served over HTTPS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('over HTTPS the answer carries HSTS for a year, subdomains included', async () => {
    const https = await createTestContext('pglite', { env: { PUBLIC_URL: 'https://portal.example.com' } });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await https.close();
    }
  });
});
