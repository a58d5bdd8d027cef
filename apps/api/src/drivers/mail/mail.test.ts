import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createOutboxMailer } from './outbox.ts';
import { createSmtpMailer } from './smtp.ts';
import { verificationMail } from './templates.ts';

describe('outbox mailer', () => {
  it('writes every message as an .eml file with headers and the German body', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const mailer = createOutboxMailer({ dir, from: 'Portal <noreply@example.com>', print: false });
    await mailer.send(verificationMail('kunde@example.com', 'kunde', 'AB12'));
    await mailer.send(verificationMail('zweite@example.com', 'zweite', 'CD34'));
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const raw = fs.readFileSync(path.join(dir, files.sort()[0]!), 'utf8');
    expect(raw).toMatch(/^From: Portal <noreply@example.com>$/m);
    expect(raw).toMatch(/^To: kunde@example.com$/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?Q\?Best=C3=A4tigen/m);
    expect(raw).toContain('lautet: AB12');
  });
});

describe('SMTP mailer against a real SMTP server (smtp-server)', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'portal' && auth.password === 'geheim') return callback(null, { user: 'portal' });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers through SMTP_URL with authentication', async () => {
    const mailer = createSmtpMailer({ url: `smtp://portal:geheim@127.0.0.1:${port}`, from: 'Portal <noreply@example.com>' });
    await mailer.send(verificationMail('kunde@example.com', 'kunde', 'XY98'));
    await mailer.close?.();
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('noreply@example.com');
    expect(received[0]!.to).toEqual(['kunde@example.com']);
    expect(received[0]!.data).toContain('lautet: XY98');
  });

  it('fails with an error when the credentials are wrong, so callers can report it', async () => {
    const mailer = createSmtpMailer({ url: `smtp://portal:falsch@127.0.0.1:${port}`, from: 'noreply@example.com' });
    await expect(mailer.send(verificationMail('kunde@example.com', 'kunde', 'XY98'))).rejects.toThrow();
    await mailer.close?.();
  });
});
