import { domainMessages } from '@hp/contract';
import {
  RegistrarError,
  type DomainAvailability, type DomainInfo, type DomainOrderResult, type RegistrantContact, type RegistrarDomainStatus, type RegistrarDriver, type TldPrices,
} from '../registrar.ts';
import { addYears, dayOf, nameProblem, validName, validNameservers, validYears } from '../registrar-rules.ts';
import { createInwxClient, type InwxClientConfig, type InwxClientOptions } from './inwx-client.ts';

/**
 * The INWX registrar (REGISTRAR=inwx; README, "INWX (OT&E first)"), through the DomRobot JSON-RPC API.
 * Every create and transfer sets renewalMode AUTOEXPIRE so INWX never renews (and bills) by itself; the
 * portal renews explicitly with the current expiry. One contact serves as registrant, admin, tech and
 * billing. Facts and open questions: ../shared/integrations/domains-inwx.md.
 */

export type InwxConfig = InwxClientConfig;

const RENEWAL_MODE = 'AUTOEXPIRE';

/** Country calling codes for national numbers (a leading 0) of the countries our customers mostly come from. */
const CALLING_CODES: Record<string, string> = { DE: '49', AT: '43', CH: '41', NL: '31', BE: '32', LU: '352', FR: '33', IT: '39', ES: '34', PL: '48', DK: '45' };

/** "+49 30 123456", "0049 30/123456" or "030 123456" (DE) → INWX's "+49.30123456". */
export function toInwxPhone(phone: string, countryCode: string): string {
  const text = phone.trim().replace(/^00/, '+');
  const spaced = /^\+(\d{1,3})[\s./-]+(.*)$/.exec(text);
  if (spaced) return `+${spaced[1]}.${spaced[2]!.replace(/\D/g, '')}`;
  const digits = text.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) {
    const known = Object.values(CALLING_CODES).find((c) => digits.startsWith(`+${c}`));
    const cc = known ?? digits.slice(1, 3);
    return `+${cc}.${digits.slice(1 + cc.length)}`;
  }
  const cc = CALLING_CODES[countryCode.toUpperCase()] ?? '49';
  return `+${cc}.${digits.replace(/^0/, '')}`;
}

/**
 * INWX's date fields: the JSON form is unconfirmed (facts sheet), so accept an ISO string,
 * "YYYY-MM-DD HH:mm:ss" (taken as UTC), XML-RPC's "20250101T00:00:00", or `{timestamp}` in seconds.
 */
export function parseInwxDate(value: unknown): string | null {
  if (value && typeof value === 'object' && 'timestamp' in value) return parseInwxDate((value as { timestamp: unknown }).timestamp);
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value < 1e12 ? value * 1000 : value).toISOString();
  if (typeof value !== 'string' || !value.trim()) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return parseInwxDate(Number(text));
  const compact = /^(\d{4})(\d{2})(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  const normalised = compact
    ? `${compact[1]}-${compact[2]}-${compact[3]}T${compact[4]}:${compact[5]}:${compact[6]}Z`
    : /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(text) ? `${text.replace(' ', 'T')}${text.length === 10 ? 'T00:00:00' : ''}Z` : text;
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const isTruthy = (v: unknown) => v === true || v === 1 || (typeof v === 'string' && v !== '' && v !== '0' && v.toLowerCase() !== 'false');
const toCents = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number.parseFloat(String(v ?? '').replace(',', '.'));
  return Number.isFinite(n) ? Math.round(n * 100) : NaN;
};

function statusOf(raw: unknown, expiresAt: string | null, now: number): RegistrarDomainStatus {
  const status = String(raw ?? '').toUpperCase();
  if (/FAIL|REJECT|CANCEL|DENIED/.test(status)) return 'failed';
  if (/EXPIRE|REDEMPTION|DELETE/.test(status)) return 'expired';
  if (/TRANSFER|PENDING|REQUEST/.test(status)) return 'pending';
  if (expiresAt && Date.parse(expiresAt) <= now) return 'expired';
  return status === 'OK' || expiresAt ? 'active' : 'pending';
}

interface CheckedDomain { domain?: string; avail?: unknown; status?: string; reason?: string; premium?: unknown }

/**
 * A premium name's create price in cents, from the form INWX's WHMCS module reads
 * (`premium.prices.create.price` with `premium.currency`; inwx-api-table.ts, domain.check).
 * null: not premium. NaN: premium, but the price cannot be read (or is not in EUR) — such a name is not sold.
 */
function premiumCreateCents(premium: unknown): number | null {
  if (premium === undefined || premium === null || premium === false || premium === 0 || premium === '' || premium === '0') return null;
  if (typeof premium === 'object' && Object.keys(premium).length === 0) return null;
  const p = premium as { prices?: { create?: { price?: unknown } }; currency?: unknown };
  if (String(p.currency ?? '').toUpperCase() !== 'EUR') return NaN;
  const cents = toCents(p.prices?.create?.price);
  return cents > 0 ? cents : NaN;
}
interface InfoData { domain?: string; status?: string; exDate?: unknown; authCode?: string; transferLock?: unknown; ns?: unknown }

export function createInwxRegistrar(config: InwxConfig, opts: InwxClientOptions = {}): RegistrarDriver & { kind: 'inwx' } {
  const client = createInwxClient(config, opts);
  const now = opts.now ?? Date.now;

  async function readInfo(domain: string): Promise<InfoData> {
    return (await client.call<InfoData>('domain.info', { domain, wide: 1 })).resData ?? {};
  }

  async function expiryAfterOrder(domain: string, years: number): Promise<string> {
    const info = await readInfo(domain).catch(() => ({} as InfoData));
    return parseInwxDate(info.exDate) ?? addYears(new Date(now()), years).toISOString();
  }

  const contactRoles = (contactId: string) => {
    const id = Number(contactId);
    if (!Number.isSafeInteger(id)) throw new RegistrarError('INVALID', undefined, `contact id ${contactId} is not an INWX id`);
    return { registrant: id, admin: id, tech: id, billing: id };
  };

  return {
    kind: 'inwx',

    async check(domains) {
      const valid = [...new Set(domains.filter((d) => nameProblem(d) === null))];
      const answers = new Map<string, CheckedDomain>();
      if (valid.length) {
        const { resData } = await client.call<{ domain?: CheckedDomain[] }>('domain.check', { domain: valid });
        for (const a of resData?.domain ?? []) if (a.domain) answers.set(a.domain.toLowerCase(), a);
      }
      return domains.map((domain): DomainAvailability => {
        const problem = nameProblem(domain);
        if (problem) return { domain, status: 'invalid', reason: problem };
        const a = answers.get(domain);
        if (!a) throw new RegistrarError('REMOTE_FAULT', undefined, `domain.check: no answer for ${domain}`);
        if (isTruthy(a.avail)) {
          // The top-level `price` is INWX's ordinary registration price, never the premium one.
          const premium = premiumCreateCents(a.premium);
          if (premium === null) return { domain, status: 'free' };
          if (Number.isNaN(premium)) return { domain, status: 'invalid', reason: domainMessages.premiumWithoutPrice };
          return { domain, status: 'premium', priceCents: premium };
        }
        // The registry's reason is English (and its own); the customer gets ours.
        if (a.reason || String(a.status ?? '').toLowerCase() === 'invalid') return { domain, status: 'invalid', reason: 'Diese Domain kann bei der Registry nicht registriert werden (reserviert oder gesperrt).' };
        return { domain, status: 'taken' };
      });
    },

    async prices(tlds) {
      if (!tlds.length) return [];
      const { resData } = await client.call<{ price?: Record<string, unknown>[] }>('domain.getPrices', { tld: tlds, vat: false });
      const result: TldPrices[] = [];
      for (const p of resData?.price ?? []) {
        const tld = String(p.tld ?? '').toLowerCase();
        if (!tlds.includes(tld)) continue;
        if (String(p.currency ?? 'EUR').toUpperCase() !== 'EUR') throw new RegistrarError('REMOTE_FAULT', undefined, `domain.getPrices: currency ${String(p.currency)} for ${tld}`);
        // INWX's prices are per year already ("Domain registration price/year"); createPeriod is only the
        // minimum term in years (inwx-api-table.ts, domain.getPrices), so nothing is divided by it.
        const entry = { tld, currency: 'EUR' as const, createCents: toCents(p.createPrice), renewCents: toCents(p.renewalPrice), transferCents: toCents(p.transferPrice) };
        if ([entry.createCents, entry.renewCents, entry.transferCents].some((n) => !Number.isFinite(n))) throw new RegistrarError('REMOTE_FAULT', undefined, `domain.getPrices: unreadable price for ${tld}`);
        result.push(entry);
      }
      return result;
    },

    async saveContact(existingId, contact: RegistrantContact) {
      const fields = {
        name: contact.name, street: contact.street, city: contact.city, pc: contact.postalCode, cc: contact.countryCode.toUpperCase(),
        voice: toInwxPhone(contact.phone, contact.countryCode), email: contact.email,
      };
      if (existingId !== null && Number.isSafeInteger(Number(existingId))) {
        try {
          // contact.update has no `type` (INWX keeps the type the contact was created with); an emptied
          // company is sent as org "" so the old one does not stay on the contact.
          await client.call('contact.update', { id: Number(existingId), ...fields, org: contact.company ?? '' });
          return existingId;
        } catch (err) {
          if (!(err instanceof RegistrarError && err.code === 'NOT_FOUND')) throw err;
        }
      }
      const { resData } = await client.call<{ id?: unknown }>('contact.create', {
        type: contact.company ? 'ORG' : 'PERSON', ...fields, ...(contact.company ? { org: contact.company } : {}),
      });
      const id = Number(resData?.id);
      if (!Number.isSafeInteger(id)) throw new RegistrarError('REMOTE_FAULT', undefined, 'contact.create: no id in the answer');
      return String(id);
    },

    async register(spec): Promise<DomainOrderResult> {
      const { tld } = validName(spec.domain);
      validYears(tld, spec.years);
      const ns = validNameservers(spec.nameservers);
      const { code } = await client.call('domain.create', {
        domain: spec.domain, period: `${spec.years}Y`, ...contactRoles(spec.contactId), ns, renewalMode: RENEWAL_MODE,
      });
      if (code === 1001) return { status: 'pending', expiresAt: null };
      return { status: 'active', expiresAt: await expiryAfterOrder(spec.domain, spec.years) };
    },

    async transfer(spec): Promise<DomainOrderResult> {
      validName(spec.domain);
      const ns = spec.nameservers ? validNameservers(spec.nameservers) : undefined;
      const { code } = await client.call('domain.transfer', {
        domain: spec.domain, authCode: spec.authCode, ...contactRoles(spec.contactId), ...(ns ? { ns } : {}), renewalMode: RENEWAL_MODE,
      });
      if (code === 1001) return { status: 'pending', expiresAt: null };
      return { status: 'active', expiresAt: await expiryAfterOrder(spec.domain, 1) };
    },

    async renew(spec) {
      const { tld } = validName(spec.domain);
      validYears(tld, spec.years);
      const expiration = dayOf(spec.currentExpiry);
      if (!expiration) throw new RegistrarError('INVALID', undefined, `currentExpiry ${spec.currentExpiry} is no date`);
      const { resData } = await client.call<{ exDate?: unknown }>('domain.renew', { domain: spec.domain, period: `${spec.years}Y`, expiration });
      const expiresAt = parseInwxDate(resData?.exDate) ?? parseInwxDate((await readInfo(spec.domain)).exDate);
      if (!expiresAt) throw new RegistrarError('REMOTE_FAULT', undefined, `domain.renew: no readable exDate for ${spec.domain}`);
      return { expiresAt };
    },

    async setNameservers(domain, nameservers) {
      validName(domain);
      await client.call('domain.update', { domain, ns: validNameservers(nameservers) });
    },

    async setTransferLock(domain, locked) {
      validName(domain);
      await client.call('domain.update', { domain, transferLock: locked ? 1 : 0 });
    },

    async getAuthCode(domain) {
      validName(domain);
      const code = (await readInfo(domain)).authCode;
      if (!code) throw new RegistrarError('REMOTE_FAULT', undefined, `domain.info: no authCode for ${domain}`);
      return code;
    },

    async info(domain): Promise<DomainInfo> {
      validName(domain);
      const data = await readInfo(domain);
      const expiresAt = parseInwxDate(data.exDate);
      const status = statusOf(data.status, expiresAt, now());
      return {
        domain,
        status,
        expiresAt: status === 'pending' ? null : expiresAt,
        nameservers: Array.isArray(data.ns) ? data.ns.map((n) => String(n).toLowerCase()) : [],
        transferLock: isTruthy(data.transferLock),
      };
    },
  };
}
