import { and, asc, eq, isNull } from 'drizzle-orm';
import {
  DOMAIN_TLD_INFO, PROVIDER_NAMESERVERS, domainOrderMessages, domainToUnicode, validateDomainName,
  type CheckoutResponse, type DomainCard, type DomainCheckoutInput, type DomainDetail, type DomainQuote,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { OutsideSystems } from '../../drivers/outside-systems.ts';
import { auditEvents, domains, orders, users } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { withLease } from '../../lib/lease.ts';
import { encryptSecret } from '../../lib/secrets.ts';
import { RegistrarError, type DomainAvailability } from '../../drivers/registrar/registrar.ts';
import { checkCurrentPassword } from '../auth/auth.service.ts';
import { placeOrder } from '../shop/shop.service.ts';
import { domainClaimError, domainNameClaim, domainProduct } from './domain.product.ts';
import { missingContactFields } from './registrar-contact.ts';
import { toItem, toRegistrarAppError } from './domain-search.service.ts';
import { ordersOfSubscription } from '../products/subscription.ts';

/**
 * Ordering a domain and running one's own domains (issue 13, decision 024). The checkout asks the
 * registrar before the order is placed; the product module then holds the name in the checkout
 * transaction. Every portal change goes to the registrar first and is stored only when it accepted.
 */
type DomainDeps = Pick<Deps, 'db' | 'env' | 'payments' | 'secrets' | 'vatCheck' | 'products' | keyof OutsideSystems> & { log?: { warn: (obj: object, msg: string) => void } };

/** Checkouts and quotes per customer (each asks the registrar). */
const ORDER_LIMIT = { limit: 30, windowSeconds: 600 };
/** Changes at the registrar per customer. */
const WRITE_LIMIT = { limit: 30, windowSeconds: 600 };

/** A registrar refusal in the portal: German 409 with its reason; unreachable or busy: 503. */
function portalError(err: unknown, deps: DomainDeps): unknown {
  if (err instanceof RegistrarError && err.code !== 'UNAVAILABLE' && err.code !== 'TRY_LATER' && err.code !== 'AUTH') {
    deps.log?.warn({ code: err.code, detail: err.detail }, 'registrar refused a domain change');
    return conflict(`REGISTRAR_${err.code}`, err.message);
  }
  return toRegistrarAppError(err, deps);
}

function parseName(raw: string) {
  const parsed = validateDomainName(raw);
  if ('reason' in parsed) throw badRequest('DOMAIN_INVALID', parsed.reason);
  return parsed;
}

async function checkOne(deps: DomainDeps, ascii: string): Promise<DomainAvailability> {
  try {
    const [answer] = await deps.registrar.check([ascii]);
    if (!answer) throw new RegistrarError('UNAVAILABLE', undefined, 'empty check answer');
    return answer;
  } catch (err) {
    throw toRegistrarAppError(err, deps);
  }
}


/** Why this action cannot be ordered (German), or null. */
function blockedBy(action: 'register' | 'transfer', answer: DomainAvailability): string | null {
  if (answer.status === 'invalid') return answer.reason;
  if (action === 'register' && answer.status === 'taken') return domainOrderMessages.notFree;
  if (action === 'transfer' && answer.status !== 'taken') return domainOrderMessages.notTaken;
  return null;
}

async function profileOf(deps: DomainDeps, user: RequestUser) {
  const [row] = await deps.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw notFound();
  return row;
}

/** The order form's facts before payment: availability, price, terms, missing profile fields. */
export async function quoteDomain(deps: DomainDeps, user: RequestUser, query: { domain: string; action: 'register' | 'transfer' }): Promise<DomainQuote> {
  await enforceLimit(deps.db, { key: `domain-order:${user.id}`, ...ORDER_LIMIT });
  const name = parseName(query.domain);
  const profile = await profileOf(deps, user);
  const answer = await checkOne(deps, name.ascii);
  const claim = await domainNameClaim(deps.db, name.ascii, user.id);
  return {
    ...toItem(answer),
    premium: answer.status === 'premium',
    years: query.action === 'transfer' ? { min: 1, max: 1 } : DOMAIN_TLD_INFO[name.tld].years,
    missingProfile: missingContactFields(profile),
    blocked: (claim ? domainClaimError(claim).message : null) ?? blockedBy(query.action, answer),
  };
}

/** Register, transfer or renew: checked with the registrar, then the shop's common checkout. */
export async function checkoutDomain(deps: DomainDeps, user: RequestUser, input: DomainCheckoutInput): Promise<CheckoutResponse> {
  await enforceLimit(deps.db, { key: `domain-order:${user.id}`, ...ORDER_LIMIT });
  if (input.action === 'renew') return placeOrder(deps, user, domainProduct, { ...input, domain: undefined, authCode: undefined, nameservers: undefined });
  const name = parseName(input.domain!);
  const profile = await profileOf(deps, user);
  if (missingContactFields(profile).length) throw conflict('PROFILE_INCOMPLETE', domainOrderMessages.profileIncomplete);
  // Cheap refusals first: a name we manage or someone holds needs no registrar call (checked again under the lock).
  const claim = await domainNameClaim(deps.db, name.ascii, user.id);
  if (claim && claim !== 'own-order') throw domainClaimError(claim);
  const answer = await checkOne(deps, name.ascii);
  const blocked = blockedBy(input.action, answer);
  if (blocked) throw answer.status === 'invalid' ? badRequest('DOMAIN_INVALID', blocked) : conflict(input.action === 'register' ? 'DOMAIN_NOT_FREE' : 'DOMAIN_NOT_TAKEN', blocked);
  return placeOrder(deps, user, domainProduct, {
    ...input,
    checked: { ascii: name.ascii, tld: name.tld, yearCents: toItem(answer).yearCents!, premium: answer.status === 'premium' },
    ...(input.action === 'transfer' ? { sealedAuthCode: encryptSecret(deps.secrets.encryptionKey, input.authCode!) } : {}),
  });
}

// ── Portal ──────────────────────────────────────────────────────────────────────────────────────────

type DomainRow = typeof domains.$inferSelect;

const toCard = (d: DomainRow): DomainCard => ({
  id: d.id, domain: d.domain, unicode: domainToUnicode(d.domain), status: d.status, statusMessage: d.statusMessage,
  expiresAt: d.expiresAt?.toISOString() ?? null, autoRenew: d.autoRenew,
});

/** Only the owner sees or changes a domain; anyone else gets the same 404 as for a missing one. */
async function ownDomain(deps: Pick<DomainDeps, 'db'>, user: RequestUser, id: string, lock = false) {
  const query = deps.db.select().from(domains).where(and(eq(domains.id, id), eq(domains.ownerId, user.id), isNull(domains.deletedAt)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Domain nicht gefunden.');
  return row;
}

export async function listDomains(deps: Pick<DomainDeps, 'db'>, user: RequestUser) {
  const rows = await deps.db.select().from(domains).where(and(eq(domains.ownerId, user.id), isNull(domains.deletedAt))).orderBy(asc(domains.domain));
  return { items: rows.map(toCard) };
}

export async function getDomain(deps: Pick<DomainDeps, 'db' | 'env'>, user: RequestUser, id: string): Promise<DomainDetail> {
  const d = await ownDomain(deps, user, id);
  const [renewing] = await deps.db.select({ id: orders.id }).from(orders).where(and(ordersOfSubscription('domain', d.id), eq(orders.kind, 'upgrade'), eq(orders.status, 'processing'))).limit(1);
  const renewableUntil = d.status === 'expired' && d.expiresAt ? new Date(d.expiresAt.getTime() + deps.env.billing.graceDays * 86_400_000).toISOString() : null;
  return {
    ...toCard(d),
    nameservers: d.nameservers,
    providerDns: sameSet(d.nameservers, PROVIDER_NAMESERVERS),
    transferLock: d.transferLock,
    createdAt: d.createdAt.toISOString(),
    yearCents: d.yearCents,
    renewable: (d.status === 'active' || d.status === 'expired') && !renewing,
    renewableUntil,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Longer than a registrar call's time budget; a dead process frees the lease after this. */
const CHANGE_LEASE_S = 30;
const changeRunning = 'Eine andere Änderung an dieser Domain läuft gerade. Bitte versuchen Sie es in einem Moment erneut.';

/**
 * One registrar change per domain at a time (across instances): the registrar is written first and our
 * row after it, so two interleaved changes could leave the registry and the portal on different values.
 */
async function oneChangeAtATime(deps: DomainDeps, d: DomainRow, work: () => Promise<void>) {
  const done = await withLease(deps.db, `domain-change:${d.id}`, CHANGE_LEASE_S, async () => {
    try {
      await work();
    } catch (err) {
      throw portalError(err, deps);
    }
  });
  if (!done) throw conflict('DOMAIN_CHANGE_RUNNING', changeRunning);
}

function requireActive(d: DomainRow) {
  if (d.status !== 'active') throw conflict('DOMAIN_NOT_ACTIVE', domainOrderMessages.notActive);
}

export async function setNameservers(deps: DomainDeps, user: RequestUser, id: string, input: { nameservers: 'provider' | string[] }) {
  await enforceLimit(deps.db, { key: `domain-write:${user.id}`, ...WRITE_LIMIT });
  const d = await ownDomain(deps, user, id);
  requireActive(d);
  const list = input.nameservers === 'provider' ? [...PROVIDER_NAMESERVERS] : input.nameservers;
  // A nameserver inside the domain itself would need glue records, which the portal does not manage.
  if (list.some((ns) => ns === d.domain || ns.endsWith(`.${d.domain}`))) {
    throw badRequest('NAMESERVER_IN_DOMAIN', 'Nameserver innerhalb der eigenen Domain brauchen Glue-Records. Bitte wenden Sie sich dafür an den Support.');
  }
  await oneChangeAtATime(deps, d, async () => {
    await deps.registrar.setNameservers(d.domain, list);
    await deps.db.update(domains).set({ nameservers: list }).where(eq(domains.id, d.id));
  });
  return getDomain(deps, user, id);
}

export async function setTransferLock(deps: DomainDeps, user: RequestUser, id: string, locked: boolean) {
  await enforceLimit(deps.db, { key: `domain-write:${user.id}`, ...WRITE_LIMIT });
  const d = await ownDomain(deps, user, id);
  requireActive(d);
  await oneChangeAtATime(deps, d, async () => {
    await deps.registrar.setTransferLock(d.domain, locked);
    await deps.db.update(domains).set({ transferLock: locked }).where(eq(domains.id, d.id));
  });
  return getDomain(deps, user, id);
}

export async function setAutoRenew(deps: DomainDeps, user: RequestUser, id: string, autoRenew: boolean) {
  const d = await ownDomain(deps, user, id);
  await deps.db.update(domains).set({ autoRenew }).where(eq(domains.id, d.id));
  return getDomain(deps, user, id);
}

/**
 * The auth code for a transfer out: only after the password was entered again (rate-limited with the
 * other password checks), and every reveal is written to the audit log staff can read.
 */
export async function revealAuthCode(deps: DomainDeps, user: RequestUser, id: string, password: string, ip: string) {
  const d = await ownDomain(deps, user, id);
  requireActive(d);
  const account = await profileOf(deps, user);
  await checkCurrentPassword(deps, account, password);
  let authCode: string;
  try {
    authCode = await deps.registrar.getAuthCode(d.domain);
  } catch (err) {
    throw portalError(err, deps);
  }
  await deps.db.insert(auditEvents).values({ actorId: user.id, action: 'domain.auth_code_revealed', targetType: 'domain', targetId: d.id, details: { domain: d.domain, ip } });
  return { authCode };
}
