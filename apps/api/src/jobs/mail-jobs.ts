import type { FastifyInstance } from 'fastify';
import type { MailMessage } from '../drivers/mail/mail.ts';
import { deliverCode } from '../modules/auth/code-mail.ts';
import type { JobRunner } from './queue.ts';
import { JOB_SEND_CODE, JOB_SEND_MAIL } from './mail-queue.ts';

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
