import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import {
  customerDetailMessages as dm, emailLinkMessages, STAFF_EMAIL_LINK_DAYS, type ConfirmEmailLinkInput, type StaffEmailChangeInput,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { auditEvents, oneTimeCodes, users } from '../../db/schema/index.ts';
import { emailChangedMail, emailChangeStartedMail } from '../../drivers/mail/templates.ts';
import type { RequestUser } from '../../http/auth.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { badRequest, notFound, tooManyRequests } from '../../http/errors.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import type { JobRunner } from '../../jobs/queue.ts';
import { enforceLimit, hitCounter, refundAttempt } from '../../lib/rate-limit.ts';
import { enqueueCodeMail } from '../auth/code-mail.ts';
import { consumeCode, issueCode } from '../auth/codes.ts';
import { contactChanged } from '../products/registry.ts';

/**
 * Staff-initiated e-mail changes (issue 11: "An e-mail change is confirmed by the new address";
 * docs/decisions/021). Staff enter the new address; it becomes the account's only when someone who
 * reads that mailbox opens the link and presses the button. Until then the old address stays in use
 * and the customer page shows the pending change. The previous address is told after the change.
 */
type EmailChangeDeps = Pick<Deps, 'db' | 'secrets' | 'env' | 'products'> & { jobs?: Pick<JobRunner, 'kick'> };

/** Per customer and hour: a mistyped address can be corrected, but nobody mails a stranger in a loop. */
export const STAFF_EMAIL_CHANGES_PER_HOUR = 5;
/** Wrong links per client address and hour on the public confirm route. */
export const EMAIL_LINK_TRIES_PER_IP = 20;

/** Customers that are not deleted (anonymised); staff accounts are never changed here. */
const isActiveCustomer = and(eq(users.role, 'customer'), isNull(users.deletedAt));
const sameAddress = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;

export async function requestCustomerEmailChange(deps: EmailChangeDeps, staff: Pick<RequestUser, 'id'>, customerId: string, input: StaffEmailChangeInput) {
  const newEmail = input.newEmail.toLowerCase();
  const [user] = await deps.db.select({ id: users.id, email: users.email, username: users.username }).from(users).where(and(eq(users.id, customerId), isActiveCustomer));
  if (!user) throw notFound(dm.notFound);
  if (user.email.toLowerCase() === newEmail) throw badRequest('EMAIL_UNCHANGED', dm.emailUnchanged);
  // Staff may learn that an address is taken (unlike the public forms, where that would enumerate accounts).
  const [taken] = await deps.db.select({ id: users.id }).from(users).where(and(sameAddress(newEmail), ne(users.id, customerId))).limit(1);
  if (taken) throw badRequest('EMAIL_TAKEN', dm.emailInUse);
  const counted = await hitCounter(deps.db, { key: `staff-email-change:${customerId}`, limit: STAFF_EMAIL_CHANGES_PER_HOUR, windowSeconds: 3600 });
  if (counted.count > STAFF_EMAIL_CHANGES_PER_HOUR) throw tooManyRequests(counted.retryAfter, dm.tooManyEmailChanges);

  await deps.db.transaction(async (tx) => {
    // Requests for one customer take turns, so each newer link really voids the older ones (a burst of
    // parallel requests otherwise left several usable links).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, customerId)).for('update');
    const issued = await issueCode(tx, { userId: customerId, purpose: 'staff_change_email', newEmail, ttlMinutes: STAFF_EMAIL_LINK_DAYS * 24 * 60 });
    await enqueueCodeMail(tx, issued.id);
    // The holder of the current address hears of it first: a caller who talked staff into it is noticed.
    await enqueueMail(tx, emailChangeStartedMail(user.email, user.username, newEmail, deps.env.company.email, STAFF_EMAIL_LINK_DAYS));
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'customer.email_change_requested', targetType: 'customer', targetId: customerId,
      details: { changes: [{ field: 'email', from: user.email, to: newEmail }] },
    });
  });
  deps.jobs?.kick();
  return { message: dm.emailLinkSent };
}

/** Staff withdraw a pending change (a mistake, or the customer objected): its link stops working. */
export async function cancelCustomerEmailChange(deps: EmailChangeDeps, staff: Pick<RequestUser, 'id'>, customerId: string) {
  const [user] = await deps.db.select({ email: users.email }).from(users).where(and(eq(users.id, customerId), isActiveCustomer));
  if (!user) throw notFound(dm.notFound);
  await deps.db.transaction(async (tx) => {
    const voided = await tx.update(oneTimeCodes).set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.userId, customerId), eq(oneTimeCodes.purpose, 'staff_change_email'), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, new Date())))
      .returning({ newEmail: oneTimeCodes.newEmail });
    if (voided.length === 0) throw notFound(dm.noPendingEmail);
    await tx.insert(auditEvents).values({
      actorId: staff.id, action: 'customer.email_change_cancelled', targetType: 'customer', targetId: customerId,
      details: { changes: voided.map((v) => ({ field: 'email', from: v.newEmail ?? '', to: user.email })) },
    });
  });
  return { message: dm.emailChangeCancelled };
}

/** The change waiting for confirmation, if any (shown on the customer page). */
export async function pendingEmailOf(db: Deps['db'], customerId: string) {
  const [row] = await db.select({ email: oneTimeCodes.newEmail, expiresAt: oneTimeCodes.expiresAt }).from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, customerId), eq(oneTimeCodes.purpose, 'staff_change_email'), isNull(oneTimeCodes.usedAt), gt(oneTimeCodes.expiresAt, new Date())))
    .orderBy(desc(oneTimeCodes.createdAt)).limit(1);
  return row?.email ? { email: row.email, expiresAt: row.expiresAt.toISOString() } : null;
}

/**
 * The public page behind the link: a correct, unused, unexpired token (256 bits, single use, 5 tries
 * per link, limited per client address) makes the new address the account's. Works without a login:
 * a customer who lost the old mailbox is exactly who needs this.
 */
export async function confirmEmailLink(deps: EmailChangeDeps, input: ConfirmEmailLinkInput, ip: string) {
  const ipRule = { key: `email-link-ip:${ip}`, limit: EMAIL_LINK_TRIES_PER_IP, windowSeconds: 3600 };
  await enforceLimit(deps.db, ipRule);
  const ok = await consumeCode(deps.db, deps.secrets.hmacKey, { id: input.id, purpose: 'staff_change_email' }, input.token);
  if (!ok?.newEmail) throw badRequest('INVALID_LINK', emailLinkMessages.invalidLink);
  await refundAttempt(deps.db, ipRule);
  const [user] = await deps.db.select({ email: users.email, username: users.username }).from(users).where(and(eq(users.id, ok.userId), isActiveCustomer));
  if (!user) throw badRequest('INVALID_LINK', emailLinkMessages.invalidLink);
  try {
    await deps.db.transaction(async (tx) => {
      await tx.update(users).set({ email: ok.newEmail!, emailVerifiedAt: new Date() }).where(eq(users.id, ok.userId));
      await tx.insert(auditEvents).values({
        actorId: ok.userId, action: 'customer.email_changed', targetType: 'customer', targetId: ok.userId,
        details: { changes: [{ field: 'email', from: user.email, to: ok.newEmail! }] },
      });
      await enqueueMail(tx, emailChangedMail(user.email, user.username, ok.newEmail!, deps.env.company.email));
      await contactChanged(deps.products, tx, ok.userId);
    });
  } catch (err) {
    // Registered by someone else after the link was sent.
    if (isUniqueViolation(err)) throw badRequest('EMAIL_TAKEN', dm.emailInUse);
    throw err;
  }
  deps.jobs?.kick();
  return { message: emailLinkMessages.confirmed };
}
