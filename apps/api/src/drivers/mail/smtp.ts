import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mail.ts';

/** SMTP_URL, e.g. smtps://user:pass@mail.example.com:465 or smtp://localhost:2525 */
export function createSmtpMailer(opts: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(opts.url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never);
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from: opts.from, to: message.to, subject: message.subject, text: message.text, ...(message.attachments ? { attachments: message.attachments } : {}) });
    },
    async close() {
      transport.close();
    },
  };
}
