import { and, eq, inArray } from 'drizzle-orm';
import type { DomainTld } from '@hp/contract';
import type { Db } from '../../../db/client.ts';
import { simDomainRegistry, simRegistrarContacts } from '../../../db/schema/index.ts';
import {
  RegistrarError,
  type DomainAvailability, type DomainInfo, type RegistrantContact, type RegistrarDriver, type TldPrices,
} from '../registrar.ts';
import { addYears, dayOf, nameProblem, newAuthCode, validName, validNameservers, validYears } from '../registrar-rules.ts';

/**
 * The embedded domain registry: every registered name is a row of sim_domain_registry (the primary key
 * decides a race), seeded with a few names "registered elsewhere" whose auth codes are known for the demo
 * (README, "Demo"). It answers like INWX where the product can see it: taken / free / premium / invalid,
 * AUTH_CODE for a wrong code, a transfer that stays pending for a minute (÷ SIMULATED_SPEED, finished
 * lazily by timestamps, no timers), a renewal that must name the current expiry.
 */

/** Names registered elsewhere, with the auth codes a demo transfer needs. */
export const SIM_TAKEN_DOMAINS: readonly { domain: string; authCode: string; transferLock?: boolean }[] = [
  { domain: 'musterfirma.com', authCode: 'Muster-Com-2024' },
  { domain: 'example.com', authCode: 'Example-Auth-1' },
  { domain: 'beispiel.de', authCode: 'Beispiel-De-77' },
  { domain: 'google.de', authCode: 'Google-De-0001', transferLock: true },
  { domain: 'wikipedia.org', authCode: 'Wiki-Org-42', transferLock: true },
  { domain: 'heise.de', authCode: 'Heise-De-2025' },
];

/** Free names the registry sells at a premium (net cents for the first year). */
export const SIM_PREMIUM_DOMAINS: Readonly<Record<string, number>> = {
  'cloud.de': 149_00,
  'shop.com': 899_00,
  'hosting.eu': 299_00,
  'web.info': 199_00,
};

/** What the simulated registrar charges us: net cents per year (a wholesale price list like INWX's). */
export const SIM_PRICES: Readonly<Record<DomainTld, { create: number; renew: number; transfer: number }>> = {
  de: { create: 4_20, renew: 4_20, transfer: 0 },
  com: { create: 9_90, renew: 9_90, transfer: 9_90 },
  net: { create: 11_50, renew: 11_50, transfer: 11_50 },
  org: { create: 10_90, renew: 10_90, transfer: 10_90 },
  eu: { create: 4_90, renew: 4_90, transfer: 0 },
  info: { create: 12_90, renew: 12_90, transfer: 12_90 },
};

export const SIM_TRANSFER_MS = 60_000;

export interface SimulatedRegistrarOptions {
  /** Divides the transfer duration (demo 1, browser tests 10, API tests 50). */
  speed?: number;
  /** Clock (tests move it forward). */
  now?: () => number;
}

type Row = typeof simDomainRegistry.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function createSimulatedRegistrar(db: Db, options: SimulatedRegistrarOptions = {}): RegistrarDriver & { kind: 'simulated' } {
  const speed = Math.max(1, options.speed ?? 1);
  const now = () => new Date((options.now ?? Date.now)());
  let seeded: Promise<void> | undefined;

  /** The demo names, inserted once per database (idempotent, so every instance may try). */
  function seed(): Promise<void> {
    seeded ??= (async () => {
      const expiresAt = addYears(now(), 1);
      await db.insert(simDomainRegistry).values(SIM_TAKEN_DOMAINS.map((d) => ({
        domain: d.domain, ours: false, status: 'active', authCode: d.authCode, expiresAt, nameservers: ['ns1.fremd-dns.example', 'ns2.fremd-dns.example'],
        transferLock: d.transferLock ?? false,
      }))).onConflictDoNothing();
    })().catch((err: unknown) => {
      seeded = undefined;
      throw err;
    });
    return seeded;
  }

  /** Finishes a transfer whose minute is over. */
  function settle(row: Row): Partial<Row> | null {
    if (row.status !== 'pending' || !row.pendingUntil || row.pendingUntil > now()) return null;
    // gTLD transfers add a year (ICANN); .de and .eu keep their expiry.
    const tld = row.domain.split('.').pop() as DomainTld;
    const years = tld === 'de' || tld === 'eu' ? 0 : 1;
    return { status: 'active', pendingUntil: null, expiresAt: addYears(row.expiresAt, years), authCode: newAuthCode() };
  }

  /** Reads one of our domains under its row lock, settled; change() may update it in the same transaction. */
  async function withDomain<T>(domain: string, change: (row: Row, tx: Tx) => Promise<T> | T): Promise<T> {
    validName(domain);
    await seed();
    return db.transaction(async (tx) => {
      const [found] = await tx.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, domain)).for('update');
      if (!found || !found.ours) throw new RegistrarError('NOT_FOUND', undefined, `not in our account: ${domain}`);
      let row = found;
      const settled = settle(row);
      if (settled) {
        row = { ...row, ...settled, updatedAt: now() };
        await tx.update(simDomainRegistry).set({ ...settled, updatedAt: row.updatedAt }).where(eq(simDomainRegistry.domain, domain));
      }
      return change(row, tx);
    });
  }

  async function requireContact(contactId: string) {
    const id = Number(contactId);
    const [contact] = Number.isSafeInteger(id) ? await db.select({ id: simRegistrarContacts.id }).from(simRegistrarContacts).where(eq(simRegistrarContacts.id, id)) : [];
    if (!contact) throw new RegistrarError('INVALID', undefined, `unknown contact ${contactId}`);
  }

  const infoOf = (row: Row): DomainInfo => ({
    domain: row.domain,
    status: row.status === 'pending' ? 'pending' : row.expiresAt <= now() ? 'expired' : 'active',
    expiresAt: row.status === 'pending' ? null : row.expiresAt.toISOString(),
    nameservers: row.nameservers,
    transferLock: row.transferLock,
  });

  return {
    kind: 'simulated',

    async check(domains) {
      await seed();
      const valid = domains.filter((d) => nameProblem(d) === null);
      const rows = valid.length ? await db.select({ domain: simDomainRegistry.domain }).from(simDomainRegistry).where(inArray(simDomainRegistry.domain, valid)) : [];
      const taken = new Set(rows.map((r) => r.domain));
      return domains.map((domain): DomainAvailability => {
        const problem = nameProblem(domain);
        if (problem) return { domain, status: 'invalid', reason: problem };
        if (taken.has(domain)) return { domain, status: 'taken' };
        const premium = SIM_PREMIUM_DOMAINS[domain];
        return premium ? { domain, status: 'premium', priceCents: premium } : { domain, status: 'free' };
      });
    },

    async prices(tlds) {
      return tlds.filter((t): t is DomainTld => t in SIM_PRICES).map((tld): TldPrices => ({
        tld, currency: 'EUR', createCents: SIM_PRICES[tld].create, renewCents: SIM_PRICES[tld].renew, transferCents: SIM_PRICES[tld].transfer,
      }));
    },

    async saveContact(existingId, contact: RegistrantContact) {
      const data = { ...contact } as unknown as Record<string, unknown>;
      const id = existingId === null ? NaN : Number(existingId);
      if (Number.isSafeInteger(id)) {
        const [updated] = await db.update(simRegistrarContacts).set({ contact: data, updatedAt: now() }).where(eq(simRegistrarContacts.id, id)).returning({ id: simRegistrarContacts.id });
        if (updated) return String(updated.id);
      }
      const [created] = await db.insert(simRegistrarContacts).values({ contact: data }).returning({ id: simRegistrarContacts.id });
      return String(created!.id);
    },

    async register(spec) {
      const { tld } = validName(spec.domain);
      validYears(tld, spec.years);
      const nameservers = validNameservers(spec.nameservers);
      await requireContact(spec.contactId);
      await seed();
      const expiresAt = addYears(now(), spec.years);
      // The primary key decides: of two racing registrations exactly one inserts.
      const [row] = await db.insert(simDomainRegistry).values({
        domain: spec.domain, ours: true, status: 'active', authCode: newAuthCode(), expiresAt, nameservers, transferLock: false, contactId: spec.contactId,
      }).onConflictDoNothing().returning({ domain: simDomainRegistry.domain });
      if (!row) throw new RegistrarError('TAKEN', undefined, `exists: ${spec.domain}`);
      return { status: 'active', expiresAt: expiresAt.toISOString() };
    },

    async transfer(spec) {
      validName(spec.domain);
      const nameservers = spec.nameservers ? validNameservers(spec.nameservers) : undefined;
      await requireContact(spec.contactId);
      await seed();
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(simDomainRegistry).where(eq(simDomainRegistry.domain, spec.domain)).for('update');
        if (!row) throw new RegistrarError('NOT_FOUND', 'Diese Domain ist nicht registriert und kann daher nicht übertragen werden. Sie können sie neu registrieren.', `not registered: ${spec.domain}`);
        if (row.ours) throw new RegistrarError('PROHIBITED', 'Diese Domain wird bereits von uns verwaltet.', `already ours: ${spec.domain}`);
        if (row.transferLock) throw new RegistrarError('PROHIBITED', 'Die Domain hat eine aktive Transfersperre. Bitte lassen Sie sie beim bisherigen Anbieter aufheben.', `transfer lock: ${spec.domain}`);
        if (row.authCode !== spec.authCode) throw new RegistrarError('AUTH_CODE', undefined, `wrong auth code for ${spec.domain}`);
        await tx.update(simDomainRegistry).set({
          ours: true, status: 'pending', contactId: spec.contactId, pendingUntil: new Date(now().getTime() + SIM_TRANSFER_MS / speed),
          ...(nameservers ? { nameservers } : {}), updatedAt: now(),
        }).where(and(eq(simDomainRegistry.domain, spec.domain), eq(simDomainRegistry.ours, false)));
        return { status: 'pending' as const, expiresAt: null };
      });
    },

    async renew(spec) {
      const { tld } = validName(spec.domain);
      validYears(tld, spec.years);
      return withDomain(spec.domain, async (row, tx) => {
        if (row.status === 'pending') throw new RegistrarError('PROHIBITED', undefined, `pending: ${spec.domain}`);
        const current = row.expiresAt.toISOString().slice(0, 10);
        if (dayOf(spec.currentExpiry) !== current) {
          throw new RegistrarError('INVALID', 'Das angegebene Ablaufdatum stimmt nicht mit dem des Registrars überein.', `expiration ${spec.currentExpiry} ≠ ${current}`);
        }
        const expiresAt = addYears(row.expiresAt, spec.years);
        if (expiresAt > addYears(now(), 10)) throw new RegistrarError('INVALID', 'Eine Domain kann höchstens zehn Jahre im Voraus verlängert werden.', 'beyond 10 years');
        await tx.update(simDomainRegistry).set({ expiresAt, updatedAt: now() }).where(eq(simDomainRegistry.domain, spec.domain));
        return { expiresAt: expiresAt.toISOString() };
      });
    },

    async setNameservers(domain, nameservers) {
      const list = validNameservers(nameservers);
      await withDomain(domain, async (row, tx) => {
        if (row.status === 'pending') throw new RegistrarError('PROHIBITED', undefined, `pending: ${domain}`);
        await tx.update(simDomainRegistry).set({ nameservers: list, updatedAt: now() }).where(eq(simDomainRegistry.domain, domain));
      });
    },

    async setTransferLock(domain, locked) {
      await withDomain(domain, async (row, tx) => {
        if (row.status === 'pending') throw new RegistrarError('PROHIBITED', undefined, `pending: ${domain}`);
        await tx.update(simDomainRegistry).set({ transferLock: locked, updatedAt: now() }).where(eq(simDomainRegistry.domain, domain));
      });
    },

    async getAuthCode(domain) {
      return withDomain(domain, (row) => {
        if (row.status === 'pending') throw new RegistrarError('PROHIBITED', undefined, `pending: ${domain}`);
        return row.authCode;
      });
    },

    async info(domain) {
      return withDomain(domain, (row) => infoOf(row));
    },
  };
}
