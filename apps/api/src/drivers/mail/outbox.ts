import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mail.ts';

/**
 * Embedded default: every message becomes an .eml file under data/outbox/. When `print` is on
 * (embedded mode, not tests) the message is printed to the console so a local user can read codes;
 * it never goes through the structured request log.
 */
export function createOutboxMailer(opts: { dir: string; from: string; print: boolean }): Mailer {
  // nodemailer is loaded with the first message, not at start (issue 26: every start paid for it).
  let transport: Promise<Transporter> | undefined;
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
      const info = await (await transport).sendMail({ from: opts.from, to: message.to, subject: message.subject, text: message.text, ...(message.attachments ? { attachments: message.attachments } : {}) });
      await fs.mkdir(opts.dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      await fs.writeFile(path.join(opts.dir, name), info.message as Buffer);
      if (opts.print) {
        process.stdout.write(`\n──── Mail an ${message.to} (data/outbox/${name}) ────\nBetreff: ${message.subject}\n\n${message.text}\n────────────────────────────────────────\n`);
      }
    },
  };
}
