import { z } from 'zod';
import type { MailMessage } from '../drivers/mail/mail.ts';
import { enqueue, jobKind } from '../db/jobs.ts';
import { defineJob, defineModule } from './define.ts';

/**
 * Mail leaves the request path (review item 15): a request stores what is to be sent, answers, and the
 * job runner delivers it, with retries while the mail server is down. A ready mail's payload holds no
 * secret; mails with one-time codes are their own job in modules/auth (the job draws the code).
 */
const isMessage = (v: unknown): v is MailMessage =>
  typeof v === 'object' && v !== null && typeof (v as MailMessage).to === 'string' && typeof (v as MailMessage).subject === 'string';

export const sendMailJob = defineJob(
  jobKind('send-mail', z.object({ message: z.custom<MailMessage>(isMessage) })),
  async (deps, { message }) => {
    await deps.mail.send(message);
  },
);

type Executor = Parameters<typeof enqueue>[0];

export const enqueueMail = (tx: Executor, message: MailMessage) => enqueue(tx, sendMailJob, { message });

/** Mail delivery belongs to no business module: the platform's own manifest. */
export const mailModule = defineModule({ name: 'mail', jobs: [sendMailJob] });
