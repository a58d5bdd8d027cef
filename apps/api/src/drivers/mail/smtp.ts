import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mail.ts';

/** SMTP_URL, e.g. smtps://user:pass@mail.example.com:465 or smtp://localhost:2525 */
export function createSmtpMailer(opts: { url: string; from: string }): Mailer {
  // nodemailer is loaded with the first message, not at start (issue 26).
  let transport: Promise<Transporter> | undefined;
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(opts.url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never));
      await (await transport).sendMail({ from: opts.from, to: message.to, subject: message.subject, text: message.text, ...(message.attachments ? { attachments: message.attachments } : {}) });
    },
    async close() {
      (await transport)?.close();
    },
  };
}
