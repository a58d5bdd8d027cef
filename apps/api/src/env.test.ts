import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INWX_URLS, mailSender, readEnv } from './env.ts';
import { createRegistrarDriver } from './drivers/registrar/index.ts';
import type { Db } from './db/client.ts';
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

describe('registrar settings', () => {
  const noDb = {} as Db;

  it('defaults to the simulated registry; REGISTRAR=inwx uses OT&E unless INWX_ENDPOINT=live or INWX_URL says otherwise', () => {
    expect(readEnv({}).registrar).toBe('simulated');
    expect(createRegistrarDriver(readEnv({}), noDb).kind).toBe('simulated');
    const ote = readEnv({ REGISTRAR: 'inwx', INWX_USER: 'musterhost', INWX_PASSWORD: 'geheim', INWX_TOTP_SECRET: 'jbsw y3dp ehpk 3pxp' });
    expect(ote.inwx).toEqual({ user: 'musterhost', password: 'geheim', totpSecret: 'JBSWY3DPEHPK3PXP', endpoint: 'ote', url: INWX_URLS.ote });
    expect(ote.inwx.url).toBe('https://api.ote.domrobot.com/jsonrpc/');
    expect(createRegistrarDriver(ote, noDb).kind).toBe('inwx');
    expect(readEnv({ REGISTRAR: 'inwx', INWX_ENDPOINT: 'live' }).inwx.url).toBe('https://api.domrobot.com/jsonrpc/');
    expect(readEnv({ INWX_ENDPOINT: 'live', INWX_URL: 'http://127.0.0.1:9999/jsonrpc/' }).inwx.url).toBe('http://127.0.0.1:9999/jsonrpc/');
  });

  it('refuses an INWX setup without credentials, an unknown endpoint, or plain http to a remote host', () => {
    expect(() => createRegistrarDriver(readEnv({ REGISTRAR: 'inwx', INWX_USER: 'musterhost' }), noDb)).toThrow('REGISTRAR=inwx needs INWX_PASSWORD');
    expect(() => readEnv({ INWX_ENDPOINT: 'test' })).toThrow('INWX_ENDPOINT must be ote or live');
    expect(() => createRegistrarDriver(readEnv({ REGISTRAR: 'inwx', INWX_USER: 'u', INWX_PASSWORD: 'p', INWX_URL: 'http://api.example.net/jsonrpc/' }), noDb)).toThrow(/https/);
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

describe('data-center settings', () => {
  it('shows placeholders until configured; DATACENTER_CERTIFICATIONS is a comma list and an empty value hides a line', () => {
    expect(readEnv({}).dataCenter).toEqual({
      location: 'Frankfurt am Main, Deutschland', operator: '', certifications: ['ISO/IEC 27001'],
      power: 'Zwei unabhängige Stromeinspeisungen, USV und Netzersatzanlage (N+1)', network: 'Redundante Anbindung über mehrere Carrier',
    });
    expect(readEnv({
      DATACENTER_LOCATION: ' Hamburg ', DATACENTER_OPERATOR: 'Beispiel Colocation AG', DATACENTER_CERTIFICATIONS: 'ISO/IEC 27001, EN 50600 ,,',
      DATACENTER_POWER: '', DATACENTER_NETWORK: 'Zwei Carrier',
    }).dataCenter).toEqual({ location: 'Hamburg', operator: 'Beispiel Colocation AG', certifications: ['ISO/IEC 27001', 'EN 50600'], power: '', network: 'Zwei Carrier' });
    expect(readEnv({ DATACENTER_CERTIFICATIONS: '' }).dataCenter.certifications).toEqual([]);
  });
});
