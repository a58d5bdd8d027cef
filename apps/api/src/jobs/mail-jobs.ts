import type { FastifyInstance } from 'fastify';
import type { MailMessage } from '../drivers/mail/mail.ts';
import { deliverCode } from '../modules/auth/code-mail.ts';
import { enqueueJob, type JobRunner } from './queue.ts';

/** A ready mail (notices, reminders); the payload holds no secret. */
export const JOB_SEND_MAIL = 'send-mail';
/** A mail with a one-time code: the job draws the code, so no code is ever stored in a job. */
export const JOB_SEND_CODE = 'send-code';

type Executor = Parameters<typeof enqueueJob>[0];

export const enqueueMail = (tx: Executor, message: MailMessage) => enqueueJob(tx, JOB_SEND_MAIL, { message });
export const enqueueCodeMail = (tx: Executor, codeId: string) => enqueueJob(tx, JOB_SEND_CODE, { codeId }, { dedupeKey: `code:${codeId}` });

/**
 * Mail leaves the request path (review item 15): a request only stores what is to be sent, answers, and
 * the job runner delivers it, with retries when the mail server is down. A reset request for a known
 * address therefore takes as long as one for an unknown address.
 */
export function registerMailJobs(runner: JobRunner, app: FastifyInstance) {
  runner.register(JOB_SEND_MAIL, async ({ payload }) => {
    await app.deps.mail.send(payload.message as MailMessage);
  });
  runner.register(JOB_SEND_CODE, async ({ payload }) => {
    await deliverCode(app.deps, String(payload.codeId));
  });
}
