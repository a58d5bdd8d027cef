import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../deps.ts';
import { oneTimeCodes, users } from '../../db/schema/index.ts';
import { STAFF_EMAIL_LINK_DAYS } from '@hp/contract';
import { emailChangeCodeMail, emailChangeLinkMail, resetMail, verificationMail } from '../../drivers/mail/templates.ts';
import { drawCode } from './codes.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { defineJob } from '../../jobs/define.ts';

/**
 * The send-code job (sendCodeJob below): draws the code of an open code row and mails it. Rows without
 * an account (a reset for an unknown address) send nothing. An e-mail change to an address that another
 * account uses sends nothing either, so its code is never drawn and the change can never be confirmed,
 * while the requester got the same answer as for a free address.
 */
export async function deliverCode(deps: Pick<Deps, 'db' | 'mail' | 'secrets' | 'env'>, codeId: string) {
  const [row] = await deps.db.select({ purpose: oneTimeCodes.purpose, newEmail: oneTimeCodes.newEmail, userId: users.id, email: users.email, username: users.username })
    .from(oneTimeCodes).innerJoin(users, eq(users.id, oneTimeCodes.userId))
    .where(eq(oneTimeCodes.id, codeId));
  if (!row) return;
  if (row.purpose === 'change_email' || row.purpose === 'staff_change_email') {
    if (!row.newEmail) return;
    const taken = await deps.db.select({ id: users.id }).from(users)
      .where(and(sql`lower(${users.email}) = ${row.newEmail.toLowerCase()}`, ne(users.id, row.userId))).limit(1);
    if (taken.length) return;
  }
  const code = await drawCode(deps.db, deps.secrets.hmacKey, codeId);
  if (!code) return; // voided by a newer code, used or expired meanwhile
  const mail = row.purpose === 'verify_email' ? verificationMail(row.email, row.username, code)
    : row.purpose === 'reset_password' ? resetMail(row.email, row.username, code)
      : row.purpose === 'staff_change_email'
        ? emailChangeLinkMail(row.newEmail!, row.username, emailLink(deps.env.publicUrl, codeId, code), STAFF_EMAIL_LINK_DAYS)
        : emailChangeCodeMail(row.newEmail!, row.username, code);
  await deps.mail.send(mail);
}

/** The page that confirms a staff-initiated e-mail change (a button there sends the POST, so a mail scanner opening the link changes nothing). */
export const emailLink = (publicUrl: string, codeId: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/email-bestaetigen?id=${encodeURIComponent(codeId)}&token=${encodeURIComponent(token)}`;

/** A mail with a one-time code: the job draws the code, so no code is ever stored in a job. */
export const sendCodeJob = defineJob(jobKind('send-code', z.object({ codeId: z.string() })), async (deps, { codeId }) => {
  await deliverCode(deps, codeId);
});

export const enqueueCodeMail = (tx: Parameters<typeof enqueue>[0], codeId: string) =>
  enqueue(tx, sendCodeJob, { codeId }, { dedupeKey: `code:${codeId}` });
