import type { MailMessage } from '../drivers/mail/mail.ts';
import { enqueueJob } from '../db/enqueue.ts';

// The mail jobs' kinds and enqueue helpers, apart from their handlers (mail-jobs.ts): modules enqueue
// mails through this file, and mail-jobs.ts, which calls into modules/auth, imports it too. Modules may
// import this file and no other in jobs/ (docs/decisions/009).

/** A ready mail (notices, reminders); the payload holds no secret. */
export const JOB_SEND_MAIL = 'send-mail';
/** A mail with a one-time code: the job draws the code, so no code is ever stored in a job. */
export const JOB_SEND_CODE = 'send-code';

type Executor = Parameters<typeof enqueueJob>[0];

export const enqueueMail = (tx: Executor, message: MailMessage) => enqueueJob(tx, JOB_SEND_MAIL, { message });
export const enqueueCodeMail = (tx: Executor, codeId: string) => enqueueJob(tx, JOB_SEND_CODE, { codeId }, { dedupeKey: `code:${codeId}` });
