import { and, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { domainToUnicode } from '@hp/contract';
import { domains, orders, users } from '../../db/schema/index.ts';
import { enqueue, jobKind } from '../../db/jobs.ts';
import { RegistrarError, type DomainInfo } from '../../drivers/registrar/registrar.ts';
import { ensureContact } from './registrar-contact.ts';
import { domainActiveMail, domainExpiredMail, domainExpiryReminderMail, domainReleasedMail } from '../../drivers/mail/templates.ts';
import { defineJob, defineSchedule, type JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import { decryptSecret } from '../../lib/secrets.ts';
import { runTerms, type ProductTerms } from '../products/terms.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { deliverDomainKind, domainConfigOf, renewDomainKind } from './domain.product.ts';
import { ordersOfSubscription } from '../products/subscription.ts';

/**
 * Delivery and term of a domain (issue 13, decision 024): registration or transfer at the registrar
 * after payment (a pending transfer is polled by a durable job until the registry finishes or our
 * deadline passes), renewal after a paid renewal order, reminders before the term ends, expiry at its
 * end and release after the grace period. A registry refusal fails the order, which refunds it.
 */

type User = typeof users.$inferSelect;
type DomainRow = typeof domains.$inferSelect;

/** The registrar errors a later attempt can overcome: the job is retried. Everything else is final. */
const TRANSIENT = new Set(['UNAVAILABLE', 'TRY_LATER', 'AUTH']);
const isFinal = (err: unknown): err is RegistrarError => err instanceof RegistrarError && !TRANSIENT.has(err.code);

/** What the registry knows of a name in our account, or null when it is not (yet) there. */
async function infoOrNull(deps: Pick<JobDeps, 'registrar'>, domain: string): Promise<DomainInfo | null> {
  try {
    return await deps.registrar.info(domain);
  } catch (err) {
    if (err instanceof RegistrarError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

async function loadDelivery(deps: Pick<JobDeps, 'db'>, orderId: string) {
  const [row] = await deps.db.select({ order: orders, domain: domains, user: users }).from(orders)
    .innerJoin(domains, ordersOfSubscription('domain', domains.id)).innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  return row;
}

/** The registry finished: the domain is active with its expiry, the order completed, the customer told. */
async function activate(deps: Pick<JobDeps, 'db' | 'registrar'>, row: { domain: DomainRow; user: User }, orderId: string, info: DomainInfo | { expiresAt: string | null; transferLock?: boolean }) {
  // The registry's own view where it has one (expiry, lock as it set them).
  const current = info.transferLock === undefined ? await infoOrNull(deps, row.domain.domain) ?? info : info;
  const expiry = current.expiresAt ? new Date(current.expiresAt) : null;
  // /domain promises the transfer lock: it is on after a registration and after a completed transfer
  // (issue 21). A registry that refuses or cannot lock this extension leaves it as it reports; the
  // customer sees the real state on the domain page and can try again there.
  let transferLock = current.transferLock;
  if (transferLock === false) {
    try {
      await deps.registrar.setTransferLock(row.domain.domain, true);
      transferLock = true;
    } catch { /* keep the registry's value */ }
  }
  await deps.db.transaction(async (tx) => {
    const [done] = await tx.update(domains).set({
      status: 'active', statusMessage: null, expiresAt: expiry, pendingDeadline: null,
      ...(transferLock === undefined ? {} : { transferLock }),
    })
      .where(and(eq(domains.id, row.domain.id), inArray(domains.status, ['registering', 'transferring']))).returning({ id: domains.id });
    if (!done) return;
    await tx.update(orders).set({ status: 'completed', completedAt: new Date(), ...(expiry ? { periodEnd: expiry } : {}) })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
    await enqueueMail(tx, domainActiveMail(row.user.email, row.user.username, domainToUnicode(row.domain.domain), expiry, row.domain.status === 'transferring'));
  });
}

/** The registry refused for good: the domain failed with the German reason and the payment goes back. */
async function giveUp(deps: Pick<JobDeps, 'db'>, domainId: string, orderId: string, message: string, reason: string) {
  await deps.db.transaction(async (tx) => {
    await tx.update(domains).set({ status: 'failed', statusMessage: message, pendingDeadline: null })
      .where(and(eq(domains.id, domainId), inArray(domains.status, ['registering', 'transferring'])));
    await failPaidOrder(tx, orderId, reason);
  });
}

/** First poll of a pending transfer after this long; each later one waits twice as long, at most an hour. */
const FIRST_POLL_MS = 5_000;
const MAX_POLL_MS = 3_600_000;
export const pollTransferKind = jobKind('poll-domain-transfer', z.object({ orderId: z.string(), round: z.number().int() }));

async function schedulePoll(deps: Pick<JobDeps, 'db' | 'env' | 'registrar'>, orderId: string, round: number) {
  const waitMs = Math.min(MAX_POLL_MS, FIRST_POLL_MS * 2 ** round) / (deps.registrar.kind === 'simulated' ? deps.env.simulatedSpeed : 1);
  await enqueue(deps.db, pollTransferKind, { orderId, round }, { dedupeKey: `poll-domain:${orderId}:${round}`, runAt: new Date(Date.now() + waitMs) });
}

/**
 * Registers or transfers the paid name. Idempotent: after a crash the registry is asked first, so a
 * name that is already in our account is not ordered a second time.
 */
export const deliverDomainJob = defineJob(deliverDomainKind, async (deps, { orderId, sealed }) => {
  const row = await loadDelivery(deps, orderId);
  if (!row) throw new PermanentJobError('order has no domain');
  const { domain, user } = row;
  if (domain.status !== 'registering' && domain.status !== 'transferring') return;
  const transfer = domain.status === 'transferring';
  const config = domainConfigOf(row.order);
  try {
    const known = await infoOrNull(deps, domain.domain);
    let result: { status: 'active' | 'pending'; expiresAt: string | null };
    if (known && known.status !== 'failed' && known.status !== 'expired') {
      result = { status: known.status === 'active' ? 'active' : 'pending', expiresAt: known.expiresAt };
    } else {
      const contactId = await ensureContact(deps, user);
      if (!transfer) {
        result = await deps.registrar.register({ domain: domain.domain, years: config.years, contactId, nameservers: domain.nameservers });
      } else {
        if (!sealed) throw new PermanentJobError('transfer without its auth code');
        result = await deps.registrar.transfer({ domain: domain.domain, authCode: decryptSecret(deps.secrets.encryptionKey, sealed), contactId, nameservers: domain.nameservers });
      }
    }
    if (result.status === 'active') await activate(deps, row, orderId, known ?? { expiresAt: result.expiresAt });
    else await schedulePoll(deps, orderId, 0);
  } catch (err) {
    if (!isFinal(err)) throw err;
    deps.log.warn({ orderId, code: err.code, detail: err.detail }, 'registrar refused a paid domain order: refunding');
    await giveUp(deps, domain.id, orderId, err.message, `${err.code}: ${err.detail ?? err.message}`);
  }
});

export const transferMessages = {
  timedOut: 'Der bisherige Anbieter hat den Transfer nicht rechtzeitig freigegeben. Die Zahlung wird erstattet; Sie können den Transfer mit einem neuen Auth-Code erneut beauftragen.',
  refused: 'Die Vergabestelle hat den Transfer abgelehnt. Die Zahlung wird erstattet.',
} as const;

/** Polls a pending transfer until the registry finished it, refused it, or our deadline passed. */
export const pollTransferJob = defineJob(pollTransferKind, async (deps, { orderId, round }) => {
  const row = await loadDelivery(deps, orderId);
  if (!row || row.domain.status !== 'transferring') return;
  const info = await infoOrNull(deps, row.domain.domain);
  if (info?.status === 'active') return activate(deps, row, orderId, info);
  if (info?.status === 'failed') return giveUp(deps, row.domain.id, orderId, transferMessages.refused, 'transfer refused by the registry');
  if (row.domain.pendingDeadline && row.domain.pendingDeadline <= new Date()) {
    return giveUp(deps, row.domain.id, orderId, transferMessages.timedOut, 'transfer still pending at the deadline');
  }
  await schedulePoll(deps, orderId, round + 1);
});

const dateOnly = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/** Extends the domain at the registrar after a paid renewal; idempotent through the registry's expiry. */
export const renewDomainJob = defineJob(renewDomainKind, async (deps, { orderId }) => {
  const row = await loadDelivery(deps, orderId);
  if (!row || row.order.status !== 'processing') return;
  const { domain, order } = row;
  const config = domainConfigOf(order);
  // Renewals of one domain reach the registry in the order they were paid (each extends the previous end).
  const [earlier] = await deps.db.select({ id: orders.id }).from(orders).where(and(
    ordersOfSubscription('domain', domain.id), eq(orders.kind, 'upgrade'), eq(orders.status, 'processing'), ne(orders.id, orderId), lt(orders.periodEnd, order.periodEnd!)));
  if (earlier) throw new Error('an earlier renewal of this domain is not applied yet');
  try {
    const info = await deps.registrar.info(domain.domain);
    let expiresAt: string;
    if (info.expiresAt && order.periodEnd && dateOnly(info.expiresAt) >= dateOnly(order.periodEnd)) {
      expiresAt = info.expiresAt; // renewed before a crash
    } else {
      if (!info.expiresAt) throw new RegistrarError('PROHIBITED', undefined, 'no expiry yet');
      ({ expiresAt } = await deps.registrar.renew({ domain: domain.domain, years: config.years, currentExpiry: info.expiresAt }));
    }
    await deps.db.transaction(async (tx) => {
      await tx.update(domains).set({ expiresAt: new Date(expiresAt), status: 'active', statusMessage: null, suspendedAt: null, expiryReminderStage: 0 })
        .where(and(eq(domains.id, domain.id), isNull(domains.deletedAt)));
      await tx.update(orders).set({ status: 'completed', completedAt: new Date(), periodEnd: new Date(expiresAt) })
        .where(and(eq(orders.id, orderId), eq(orders.status, 'processing')));
    });
  } catch (err) {
    if (!isFinal(err)) throw err;
    deps.log.warn({ orderId, code: err.code, detail: err.detail }, 'registrar refused a paid renewal: refunding');
    await deps.db.transaction((tx) => failPaidOrder(tx, orderId, `${err.code}: ${err.detail ?? err.message}`));
  }
});

/** After the grace period: the domain leaves the customer's portal (the registry let it run out). */
export const releaseDomainJob = defineJob(jobKind('release-domain', z.object({ domainId: z.string() })), async (deps, { domainId }) => {
  const [row] = await deps.db.select({ domain: domains, email: users.email, username: users.username }).from(domains)
    .innerJoin(users, eq(users.id, domains.ownerId)).where(eq(domains.id, domainId));
  if (!row || row.domain.deletedAt || !row.domain.suspendedAt) return;
  const graceEnd = row.domain.expiresAt ? row.domain.expiresAt.getTime() + deps.env.billing.graceDays * 86_400_000 : Infinity;
  if (graceEnd > Date.now()) return; // renewed meanwhile
  await deps.db.transaction(async (tx) => {
    const [released] = await tx.update(domains).set({ deletedAt: new Date() })
      .where(and(eq(domains.id, domainId), isNull(domains.deletedAt), sql`${domains.suspendedAt} is not null`)).returning({ id: domains.id });
    if (released) await enqueueMail(tx, domainReleasedMail(row.email, row.username, domainToUnicode(row.domain.domain)));
  });
});

const domainTerms: ProductTerms = {
  table: domains,
  columns: {
    id: domains.id, ownerId: domains.ownerId, name: domains.domain, expiresAt: domains.expiresAt,
    suspendedAt: domains.suspendedAt, deletedAt: domains.deletedAt, reminderStage: domains.expiryReminderStage,
  },
  suspendable: sql`${domains.status} = 'active'`,
  // "Auslaufen lassen" (autoRenew off): no renewal reminders; the expiry mail still comes.
  remindable: sql`${domains.autoRenew}`,
  renewUrl: (publicUrl, id) => `${publicUrl}/shop/domain?renew=${id}`,
  reminderMail: (s, url) => domainExpiryReminderMail(s.email, s.username, domainToUnicode(s.name), s.expiresAt, url),
  suspendedMail: (s, releaseAt, url) => domainExpiredMail(s.email, s.username, domainToUnicode(s.name), releaseAt, url),
  markSuspended: async (tx, s) => {
    const [expired] = await tx.update(domains).set({ suspendedAt: new Date(), status: 'expired', statusMessage: null })
      .where(and(eq(domains.id, s.id), isNull(domains.suspendedAt), eq(domains.status, 'active'), sql`${domains.expiresAt} <= now()`)).returning({ id: domains.id });
    return Boolean(expired);
  },
  // The registrar lets the name run out by itself (renewalMode AUTOEXPIRE): nothing to send.
  enqueueSuspend: async () => {},
  enqueueTerminate: (tx, s) => enqueue(tx, releaseDomainJob, { domainId: s.id }, { dedupeKey: `release-domain:${s.id}:${s.expiresAt.toISOString()}` }),
};

export const runDomainTerms = (deps: Pick<JobDeps, 'db' | 'env'>) => runTerms(deps, domainTerms);

export const domainTermsSchedule = defineSchedule({
  name: 'domain-terms',
  everyMs: (deps) => deps.env.billing.tickMs,
  firstAfterMs: () => 5_000,
  run: runDomainTerms,
});
