import { and, asc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  DOMAIN_STATUS_LABEL, DOMAIN_TLD_INFO, DomainOrderConfig, privacyMessages, PROVIDER_NAMESERVERS, addMonthsClamped, domainOrderMessages, domainToUnicode, splitGross,
  type DomainCheckoutInput, type DomainTld,
} from '@hp/contract';
import type { Tx } from '../../db/client.ts';
import { domains, orders } from '../../db/schema/index.ts';
import { enqueue, jobKind, SEALED_KEY } from '../../db/jobs.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { OrderRow, ProductModule } from '../products/product-module.ts';
import { failPaidOrder } from '../payments/fail-order.ts';
import { isoOrNull, ordersOfSubscription } from '../products/subscription.ts';
import { enqueueContactSync } from './registrar-contact.ts';

/** Domains (issue 13, decision 024): register or transfer a name, renew one's own. */
export const DOMAIN_PRODUCT_NAME = 'Domain';

export const domainConfigOf = (order: OrderRow) => DomainOrderConfig.parse(order.config);

/**
 * What the checkout hands the product after asking the registrar (domain-order.service.ts): the
 * customer's input plus the registry's answer and, for a transfer, the auth code sealed with the
 * installation key. Never built from the request alone.
 */
export type DomainOrderRequest = DomainCheckoutInput & {
  checked?: { ascii: string; tld: DomainTld; yearCents: number; premium: boolean };
  sealedAuthCode?: string;
};

export const deliverDomainKind = jobKind('deliver-domain', z.object({ orderId: z.string(), [SEALED_KEY]: z.string().optional() }));
export const renewDomainKind = jobKind('renew-domain', z.object({ orderId: z.string() }));

/** Transfers the registry has not finished within this time are given up and refunded. */
export const TRANSFER_DEADLINE_DAYS = 10;

/** Serialises everything that decides who gets a name (checkout holds and fulfilment). */
export const lockDomainName = (tx: Pick<Tx, 'execute'>, ascii: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`domain:${ascii}`}))`);

/** A live domain row of this name (any owner), or an open checkout of it. */
export async function domainNameClaim(tx: Pick<Tx, 'select'>, ascii: string, userId: string): Promise<'ours' | 'own-order' | 'held' | null> {
  const [live] = await tx.select({ id: domains.id }).from(domains)
    .where(and(eq(domains.domain, ascii), isNull(domains.deletedAt), ne(domains.status, 'failed'))).limit(1);
  if (live) return 'ours';
  const [held] = await tx.select({ userId: orders.userId }).from(orders)
    .where(and(eq(orders.product, 'domain'), eq(orders.kind, 'new'), eq(orders.status, 'pending'), gt(orders.holdUntil, sql`now()`),
      sql`${orders.config}->>'domain' = ${ascii}`)).limit(1);
  if (held) return held.userId === userId ? 'own-order' : 'held';
  return null;
}

export function domainClaimError(claim: 'ours' | 'own-order' | 'held') {
  if (claim === 'own-order') return conflict('DOMAIN_OPEN_ORDER', domainOrderMessages.ownOpenCheckout);
  if (claim === 'held') return conflict('DOMAIN_HELD', domainOrderMessages.held);
  return conflict('DOMAIN_ALREADY_OURS', domainOrderMessages.alreadyOurs);
}

const yearsText = (years: number) => `${years} ${years === 1 ? 'Jahr' : 'Jahre'}`;
const ACTION_TEXT = { register: 'Registrierung', transfer: 'Transfer', renew: 'Verlängerung' } as const;

export const domainProduct: ProductModule<DomainOrderRequest> = {
  kind: 'domain',
  name: DOMAIN_PRODUCT_NAME,

  shopPath(order) {
    const c = domainConfigOf(order);
    if (c.action === 'renew' && order.subscriptionId) return `/shop/domain?renew=${order.subscriptionId}`;
    return `/shop/domain?${new URLSearchParams({ domain: domainToUnicode(c.domain), action: c.action === 'transfer' ? 'transfer' : 'register' }).toString()}`;
  },

  async terms(db, ids) {
    if (!ids.length) return new Map();
    const rows = await db.select({ id: domains.id, expiresAt: domains.expiresAt, deletedAt: domains.deletedAt }).from(domains).where(inArray(domains.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  },

  async orderDetail(_db, order) {
    const c = domainConfigOf(order);
    // Domains are priced per year without a term discount.
    return { discountPercent: 0, configuration: { product: 'domain', domain: c.domain, unicode: domainToUnicode(c.domain), action: c.action, years: c.years, premium: c.premium } };
  },

  // The registrant contact at the registrar follows the customer's profile (decision 024).
  contactChanged: (db, userId) => enqueueContactSync(db, userId),

  async deletionBlock(tx, customerId) {
    // A domain still registered (or being registered / transferred, or expired but not yet released after
    // the grace period) is held in the customer's name at the registry; a failed one never was.
    const [live] = await tx.select({ id: domains.id }).from(domains)
      .where(and(eq(domains.ownerId, customerId), isNull(domains.deletedAt), ne(domains.status, 'failed'))).limit(1);
    return live ? { code: 'ACTIVE_DOMAINS', message: privacyMessages.activeDomains } : null;
  },

  exportSection: {
    key: 'domains',
    async rows(db, userId) {
      const rows = await db.select().from(domains).where(eq(domains.ownerId, userId)).orderBy(asc(domains.createdAt), asc(domains.domain));
      return rows.map((d) => ({
        domain: d.domain, domainLesbar: domainToUnicode(d.domain), status: d.status, nameserver: d.nameservers, automatischVerlaengern: d.autoRenew,
        transferSperre: d.transferLock, jahrespreisBruttoCents: d.yearCents,
        erstelltAm: isoOrNull(d.createdAt), laeuftAbAm: isoOrNull(d.expiresAt), geloeschtAm: isoOrNull(d.deletedAt),
      }));
    },
  },

  staffSection: {
    title: 'Domains',
    empty: 'Keine Domains.',
    async items(db, customerId) {
      const rows = await db.select().from(domains)
        .where(and(eq(domains.ownerId, customerId), isNull(domains.deletedAt))).orderBy(asc(domains.domain), asc(domains.createdAt));
      return rows.map((d) => {
        const unicode = domainToUnicode(d.domain);
        return {
          // The name as people read it, and the registry's ASCII form beside it where the two differ (IDN).
          id: d.id, name: unicode === d.domain ? unicode : `${unicode} (${d.domain})`, detail: '',
          status: DOMAIN_STATUS_LABEL[d.status], expiresAt: isoOrNull(d.expiresAt), note: d.autoRenew ? 'verlängert automatisch' : 'läuft aus',
        };
      });
    },
  },

  // A registration or transfer that failed never held the name; one still pending has no expiry yet and keeps its customer.
  churnSource: { label: 'Domains', table: domains, ownerId: domains.ownerId, expiresAt: domains.expiresAt, deletedAt: domains.deletedAt, where: ne(domains.status, 'failed') },

  subscriptionPath: (order) => (order.subscriptionId ? `/dashboard/domains/${order.subscriptionId}` : null),

  sameOrder(input) {
    if (input.action === 'renew') return and(ordersOfSubscription('domain', input.domainId!), eq(orders.kind, 'upgrade'));
    if (!input.checked) return undefined;
    return and(eq(orders.kind, 'new'), sql`${orders.config}->>'domain' = ${input.checked.ascii}`);
  },

  async reserve(tx, { userId }, input) {
    if (input.action === 'renew') {
      const [domain] = await tx.select().from(domains)
        .where(and(eq(domains.id, input.domainId!), eq(domains.ownerId, userId), isNull(domains.deletedAt))).for('update');
      if (!domain) throw notFound('Domain nicht gefunden.');
      if (domain.status !== 'active' && domain.status !== 'expired') throw conflict('DOMAIN_NOT_RENEWABLE', domainOrderMessages.notRenewable);
      // Registries refuse terms beyond ten years from today.
      const tld = domain.tld as DomainTld;
      const newExpiry = addMonthsClamped(domain.expiresAt && domain.expiresAt > new Date() ? domain.expiresAt : new Date(), input.years * 12);
      if (newExpiry > addMonthsClamped(new Date(), DOMAIN_TLD_INFO[tld].years.max * 12)) throw new AppError(400, 'DOMAIN_TERM_TOO_LONG', domainOrderMessages.tooLong);
      const config: DomainOrderConfig = { domain: domain.domain, action: 'renew', years: input.years, nameservers: domain.nameservers, yearCents: domain.yearCents, premium: domain.premium };
      const gross = domain.yearCents * input.years;
      const split = splitGross(gross);
      return { kind: 'upgrade', subscriptionId: domain.id, config, months: input.years * 12, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };
    }
    const checked = input.checked;
    if (!checked) throw new Error('domain order without a registrar check');
    const { years } = DOMAIN_TLD_INFO[checked.tld];
    if (input.years < years.min || input.years > years.max) throw new AppError(400, 'DOMAIN_YEARS', domainOrderMessages.years);
    await lockDomainName(tx, checked.ascii);
    const claim = await domainNameClaim(tx, checked.ascii, userId);
    if (claim) throw domainClaimError(claim);
    // A transfer brings one year with it (registries add it to the current expiry).
    const paidYears = input.action === 'transfer' ? 1 : input.years;
    const config: DomainOrderConfig = {
      domain: checked.ascii, action: input.action, years: paidYears,
      nameservers: input.nameservers ?? [...PROVIDER_NAMESERVERS], yearCents: checked.yearCents, premium: checked.premium,
    };
    const gross = checked.yearCents * paidYears;
    const split = splitGross(gross);
    // A transfer's auth code waits sealed (installation key) in the order until payment, then moves into the job.
    return { kind: 'new', config: { ...config, ...(input.sealedAuthCode ? { [SEALED_KEY]: input.sealedAuthCode } : {}) }, months: paidYears * 12, amountCents: gross, netCents: split.netCents, vatCents: split.vatCents };
  },

  // The name is held by the pending order's status and hold time; a transfer's sealed auth code is dropped.
  async release(tx, order) {
    await tx.update(orders).set({ config: sql`${orders.config} - ${SEALED_KEY}::text` }).where(eq(orders.id, order.id));
  },

  paymentLine(order) {
    const c = domainConfigOf(order);
    return `${DOMAIN_PRODUCT_NAME} ${domainToUnicode(c.domain)} – ${ACTION_TEXT[c.action]} · ${yearsText(c.years)}`;
  },

  invoiceLine(order) {
    const c = domainConfigOf(order);
    return {
      name: `${DOMAIN_PRODUCT_NAME} ${domainToUnicode(c.domain)} – ${ACTION_TEXT[c.action]}`,
      description: `${c.domain}${c.premium ? ' · Premium-Domain' : ''} · ${yearsText(c.years)} Laufzeit${c.action === 'transfer' ? ' (mit dem Transfer)' : ''}`,
      quantity: c.years,
      unitCode: 'ANN',
    };
  },

  async fulfil(tx, paid, { now }) {
    const c = domainConfigOf(paid);
    if (paid.kind === 'new') {
      await lockDomainName(tx, c.domain);
      // The hold ran out and another customer's order of the name was paid first: refunded, nothing is sent to the registry.
      const [live] = await tx.select({ id: domains.id }).from(domains)
        .where(and(eq(domains.domain, c.domain), isNull(domains.deletedAt), ne(domains.status, 'failed'))).limit(1);
      if (live) {
        await failPaidOrder(tx, paid.id, 'domain sold to another order before payment');
        return 'failed';
      }
      const transfer = c.action === 'transfer';
      const [row] = await tx.insert(domains).values({
        ownerId: paid.userId, domain: c.domain, tld: c.domain.slice(c.domain.lastIndexOf('.') + 1),
        status: transfer ? 'transferring' : 'registering', nameservers: c.nameservers, yearCents: c.yearCents, premium: c.premium,
        pendingDeadline: transfer ? new Date(now.getTime() + TRANSFER_DEADLINE_DAYS * 86_400_000) : null,
      }).returning({ id: domains.id });
      await tx.update(orders).set({ subscriptionId: row!.id, periodStart: now }).where(eq(orders.id, paid.id));
      // The auth code travels sealed in the job that needs it and is gone when the job ends.
      const sealed = (paid.config as { [SEALED_KEY]?: string })[SEALED_KEY];
      await enqueue(tx, deliverDomainKind, { orderId: paid.id, ...(sealed ? { [SEALED_KEY]: sealed } : {}) }, { dedupeKey: `deliver-domain:${paid.id}` });
      if (sealed) await tx.update(orders).set({ config: sql`${orders.config} - ${SEALED_KEY}::text` }).where(eq(orders.id, paid.id));
      return 'delivering';
    }
    const [domain] = await tx.select().from(domains).where(eq(domains.id, paid.subscriptionId!)).for('update');
    if (!domain || domain.deletedAt) {
      await failPaidOrder(tx, paid.id, 'domain released before payment');
      return 'failed';
    }
    // Another renewal paid before this one and not yet applied at the registry extends first: this one follows it.
    const [{ latest } = { latest: null }] = await tx.select({ latest: sql<string | null>`max(${orders.periodEnd})` }).from(orders)
      .where(and(ordersOfSubscription('domain', domain.id), eq(orders.kind, 'upgrade'), eq(orders.status, 'processing'), ne(orders.id, paid.id)));
    const pendingEnd = latest ? new Date(latest) : null;
    const current = domain.expiresAt ?? now;
    const from = pendingEnd && pendingEnd > current ? pendingEnd : current;
    await tx.update(orders).set({ periodStart: from, periodEnd: addMonthsClamped(from, c.years * 12) }).where(eq(orders.id, paid.id));
    await enqueue(tx, renewDomainKind, { orderId: paid.id }, { dedupeKey: `renew-domain:${paid.id}` });
    return 'delivering';
  },
};
