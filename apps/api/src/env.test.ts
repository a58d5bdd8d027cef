import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mailSender, readEnv } from './env.ts';
import { createOutboxMailer } from './drivers/mail/outbox.ts';
import { createTestContext } from '../test/harness.ts';

describe('mail sender', () => {
  it('sends under the configured company name, not a product placeholder', async () => {
    const env = readEnv({ COMPANY_NAME: 'Beispiel Hosting GmbH' });
    expect(env.mailFrom).toBe('"Beispiel Hosting GmbH" <noreply@example.com>');
    expect(readEnv({ COMPANY_NAME: 'Beispiel Hosting GmbH', MAIL_FROM: 'service@beispiel.de' }).mailFrom).toBe('"Beispiel Hosting GmbH" <service@beispiel.de>');
    expect(readEnv({ MAIL_FROM: 'Support <support@beispiel.de>' }).mailFrom).toBe('Support <support@beispiel.de>');
    expect(mailSender(undefined, 'Evil" <x@y>\r\nBcc: a@b')).toBe('"Evil <x@y>Bcc: a@b" <noreply@example.com>');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-sender-'));
    const mailer = createOutboxMailer({ dir, from: env.mailFrom, print: false });
    await mailer.send({ to: 'kunde@example.com', subject: 'Test', text: 'Hallo' });
    const eml = fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'utf8');
    expect(eml).toMatch(/^From: "?Beispiel Hosting GmbH"? <noreply@example.com>\r?$/m);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('API documentation switch', () => {
  const contexts: { close: () => Promise<void> }[] = [];
  afterAll(async () => { for (const c of contexts) await c.close(); });

  it('serves /api/docs and /api/openapi.json by default and hides both with API_DOCS=false', async () => {
    const open = await createTestContext('pglite');
    contexts.push(open);
    expect((await open.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(200);
    expect((await open.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);

    const hidden = await createTestContext('pglite', { env: { API_DOCS: 'false' } });
    contexts.push(hidden);
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/static/index.html']) {
      const res = await hidden.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  }, 120_000); // two full installations (migrations, seed) on PGlite: slow on a loaded 2-core machine
});
