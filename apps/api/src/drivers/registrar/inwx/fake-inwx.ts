/**
 * A fake INWX DomRobot for tests. Every request is first checked against inwx-api-table.ts (the methods
 * our driver calls, with their parameters and types as INWX's documentation, WHMCS module and terraform
 * provider define them): an unknown method or parameter, a missing required parameter or a value of the
 * wrong type is refused with INWX's result code and envelope, so the fake cannot hide a call INWX would
 * refuse. Behaviour from ../shared/integrations/domains-inwx.md ("What a fake must imitate"): `POST
 * /jsonrpc/` dispatching on `method` case-insensitively, the full envelope
 * `{code,msg,resData?,reasonCode?,reason?,details?,svTRID,runtime}` with HTTP 200 for errors too;
 * account.login setting the session cookie (2002 without it) and account.unlock with a TOTP when
 * two-factor is on; a seeded registry of taken, invalid (with reason) and premium names (premium prices
 * in the form INWX's WHMCS module reads); a price table per year with each TLD's minimum term; integer
 * contact ids and roIds; domain.create → 1000 (transfer lock on unless asked otherwise, as INWX defaults);
 * domain.renew checking `expiration` (2004 on a mismatch); domain.transfer → 1001, finished by `tick()`,
 * a wrong auth code → 2202; domain.update storing ns and transferLock. Switches answer 2502, HTTP 429,
 * hang, or forget every session. Plain node:http on 127.0.0.1 with a random port.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as OTPAuth from 'otpauth';
import { checkInwxRequest, INWX_RESULT_MESSAGES } from './inwx-api-table.ts';

type Params = Record<string, unknown>;

export interface FakeInwxDomain {
  domain: string;
  roId: number;
  /** false: registered at another registrar (the seeded names). */
  ours: boolean;
  status: 'OK' | 'TRANSFER PENDING';
  exDate: Date;
  ns: string[];
  authCode: string;
  transferLock: boolean;
  contactId: number | null;
  renewalMode?: string;
}

export interface FakeInwxOptions {
  user?: string;
  password?: string;
  /** Base32 secret: the account has two-factor on, and calls need account.unlock with a valid TAN. */
  tfaSecret?: string;
  /** How domain.info and domain.renew write dates (the real JSON form is unconfirmed). */
  dateFormat?: 'datetime' | 'iso' | 'timestamp';
}

class Fault extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason?: string,
    readonly reasonCode?: string,
    readonly details?: { code: string; msg: string }[],
  ) {
    super(message);
  }
}

export const FAKE_INWX_ACCOUNT = { user: 'musterhost-ote', password: 'ote-secret' };

/** Names registered elsewhere, with their auth codes. */
export const FAKE_INWX_TAKEN = [
  { domain: 'musterfirma.com', authCode: 'Muster-Com-2024' },
  { domain: 'example.com', authCode: 'Example-Auth-1' },
  { domain: 'google.de', authCode: 'Google-De-0001', transferLock: true },
];
/** Premium names with their registry prices (EUR, net), answered as `premium.prices.{create,renew,transfer}.price`. */
export const FAKE_INWX_PREMIUM: Record<string, { create: number; renew: number; transfer: number }> = {
  'cloud.de': { create: 149, renew: 149, transfer: 149 },
  'shop.com': { create: 899.5, renew: 120, transfer: 120 },
};
/** Premium names whose answer carries no create price (INWX has not confirmed when that happens; the driver must not sell them). */
export const FAKE_INWX_PREMIUM_UNPRICED = ['gold.com'];
/** Names the registry refuses with a reason (INWX: avail 0, status "invalid"). */
export const FAKE_INWX_INVALID: Record<string, string> = { 'nic.de': 'Domain name is reserved by the registry' };
/**
 * domain.getPrices: every price is per year, createPeriod the minimum term in years (inwx-api-table.ts).
 * `ai` stands for an extension with a two-year minimum (its registry sells .ai for two years at least).
 */
export const FAKE_INWX_PRICES: Record<string, { createPrice: number; renewalPrice: number; transferPrice: number; createPeriod: number }> = {
  de: { createPrice: 4.2, renewalPrice: 4.2, transferPrice: 0, createPeriod: 1 },
  com: { createPrice: 9.9, renewalPrice: 9.9, transferPrice: 9.9, createPeriod: 1 },
  net: { createPrice: 11.5, renewalPrice: 11.5, transferPrice: 11.5, createPeriod: 1 },
  org: { createPrice: 10.9, renewalPrice: 10.9, transferPrice: 10.9, createPeriod: 1 },
  eu: { createPrice: 4.9, renewalPrice: 4.9, transferPrice: 0, createPeriod: 1 },
  info: { createPrice: 12.9, renewalPrice: 12.9, transferPrice: 12.9, createPeriod: 1 },
  ai: { createPrice: 69, renewalPrice: 69, transferPrice: 69, createPeriod: 2 },
};
const PRICES = FAKE_INWX_PRICES;

const fault = (code: number, reason?: string) => new Fault(code, INWX_RESULT_MESSAGES[code] ?? 'Command failed', reason);

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const HOST = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
const addYears = (d: Date, years: number) => {
  const next = new Date(d);
  next.setUTCFullYear(next.getUTCFullYear() + years);
  return next;
};

export async function startFakeInwx(options: FakeInwxOptions = {}) {
  const account = { user: options.user ?? FAKE_INWX_ACCOUNT.user, password: options.password ?? FAKE_INWX_ACCOUNT.password };
  const sessions = new Map<string, { unlocked: boolean }>();
  const registry = new Map<string, FakeInwxDomain>();
  const contacts = new Map<number, Params>();
  let nextContactId = 4711;
  let nextRoId = 90_001;
  const calls: { method: string; params: Params }[] = [];
  let logins = 0;
  let unlocks = 0;
  let tryLater = false;
  let tooManyRequests = false;
  let hanging = false;
  const dateFormat = options.dateFormat ?? 'datetime';

  for (const t of FAKE_INWX_TAKEN) {
    registry.set(t.domain, {
      domain: t.domain, roId: nextRoId++, ours: false, status: 'OK', exDate: addYears(new Date(), 1), ns: ['ns1.other.example', 'ns2.other.example'],
      authCode: t.authCode, transferLock: t.transferLock ?? false, contactId: null,
    });
  }

  const writeDate = (d: Date): unknown => {
    if (dateFormat === 'iso') return d.toISOString();
    if (dateFormat === 'timestamp') return { timestamp: Math.floor(d.getTime() / 1000) };
    return d.toISOString().slice(0, 19).replace('T', ' ');
  };

  function syntaxOf(domain: string): string | null {
    if (!HOST.test(domain)) return 'Invalid domain name syntax';
    const [sld = '', tld = ''] = domain.split('.');
    if (!PRICES[tld]) return `TLD ${tld} not supported`;
    if (sld.slice(2, 4) === '--' && !sld.startsWith('xn--')) return 'Invalid domain name syntax';
    if (tld === 'eu' && sld.length < 2) return 'Domain name too short';
    return FAKE_INWX_INVALID[domain] ?? null;
  }

  function own(domain: unknown): FakeInwxDomain {
    const d = registry.get(str(domain));
    if (!d || !d.ours || d.status !== 'OK') throw fault(2303, `domain ${str(domain)} is not in this account`);
    return d;
  }

  function contactOf(value: unknown): number {
    const id = typeof value === 'number' ? value : Number.parseInt(str(value), 10);
    if (!contacts.has(id)) throw fault(2303, `contact ${str(value)} does not exist`);
    return id;
  }

  function nameservers(value: unknown, required: boolean): string[] | undefined {
    if (value === undefined && !required) return undefined;
    if (!Array.isArray(value) || value.length < 2 || !value.every((n) => HOST.test(str(n)))) throw fault(2004, 'at least two valid nameservers are needed');
    return value.map(str);
  }

  function period(value: unknown): number {
    const m = /^(\d+)Y$/.exec(str(value) || '1Y');
    const years = m ? Number(m[1]) : NaN;
    if (!(years >= 1 && years <= 10)) throw fault(2004, 'period out of range');
    return years;
  }

  /** The stored contact; `type` only from contact.create (contact.update has no such parameter). */
  const CONTACT_FIELDS = ['type', 'name', 'org', 'street', 'city', 'pc', 'cc', 'voice', 'email'] as const;
  const contactFields = (p: Params) => Object.fromEntries(CONTACT_FIELDS.filter((f) => p[f] !== undefined).map((f) => [f, p[f]]));

  const lockParam = (value: unknown, fallback: boolean) => (value === undefined ? fallback : value === true || value === 1 || value === '1' || value === 'true');

  const methods: Record<string, (p: Params) => { code?: number; resData?: unknown }> = {
    'domain.check': (p) => {
      const list = Array.isArray(p.domain) ? p.domain.map(str) : p.sld ? (Array.isArray(p.tld) ? p.tld : [p.tld]).map((t) => `${str(p.sld)}.${str(t)}`) : [str(p.domain)];
      if (!list.length || list.some((d) => !d)) throw fault(2003, 'domain missing');
      return {
        resData: {
          domain: list.map((domain) => {
            const reason = syntaxOf(domain);
            if (reason) return { domain, avail: 0, status: 'invalid', reason, checktime: 0.01 };
            if (registry.has(domain)) return { domain, avail: 0, status: 'used', checktime: 0.02 };
            const premium = FAKE_INWX_PREMIUM[domain];
            const tldPrice = PRICES[domain.split('.').pop()!]!.createPrice;
            if (premium) {
              const prices = { create: { price: premium.create }, renew: { price: premium.renew }, transfer: { price: premium.transfer } };
              return { domain, avail: 1, status: 'free', premium: { prices, currency: 'EUR' }, price: tldPrice, checktime: 0.02 };
            }
            if (FAKE_INWX_PREMIUM_UNPRICED.includes(domain)) {
              return { domain, avail: 1, status: 'free', premium: { prices: { renew: { price: 80 } }, currency: 'EUR' }, price: tldPrice, checktime: 0.02 };
            }
            return { domain, avail: 1, status: 'free', price: tldPrice, checktime: 0.02 };
          }),
        },
      };
    },
    'domain.getprices': (p) => {
      const tlds = (Array.isArray(p.tld) ? p.tld : [p.tld]).map(str);
      return { resData: { price: tlds.filter((t) => PRICES[t]).map((tld) => ({ tld, currency: 'EUR', ...PRICES[tld] })) } };
    },
    'contact.create': (p) => {
      const id = nextContactId++;
      contacts.set(id, contactFields(p));
      return { resData: { id } };
    },
    'contact.update': (p) => {
      const id = contactOf(p.id);
      contacts.set(id, { ...contacts.get(id), ...contactFields(p) });
      return {};
    },
    'domain.create': (p) => {
      const domain = str(p.domain);
      if (!domain) throw fault(2003, 'domain missing');
      const reason = syntaxOf(domain);
      if (reason) throw fault(2005, reason);
      const years = period(p.period);
      const contact = contactOf(p.registrant);
      for (const role of ['admin', 'tech', 'billing']) contactOf(p[role]);
      const ns = nameservers(p.ns, true)!;
      if (registry.has(domain)) throw fault(2302, `${domain} is registered`);
      const roId = nextRoId++;
      registry.set(domain, {
        domain, roId, ours: true, status: 'OK', exDate: addYears(new Date(), years), ns, authCode: randomBytes(8).toString('hex'),
        transferLock: lockParam(p.transferLock, true), contactId: contact, renewalMode: str(p.renewalMode) || 'AUTORENEW',
      });
      return { resData: { roId, price: PRICES[domain.split('.')[1]!]!.createPrice * years, currency: 'EUR' } };
    },
    'domain.transfer': (p) => {
      const domain = str(p.domain);
      const existing = registry.get(domain);
      if (!existing) throw fault(2303, `${domain} is not registered`);
      if (existing.ours) throw fault(2302, `${domain} is in this account already`);
      if (existing.status === 'TRANSFER PENDING') throw fault(2304, 'transfer pending');
      if (existing.transferLock) throw fault(2304, 'clientTransferProhibited');
      if (str(p.authCode) !== existing.authCode) throw fault(2202, 'wrong authcode');
      const contact = contactOf(p.registrant);
      const ns = nameservers(p.ns, false);
      Object.assign(existing, {
        status: 'TRANSFER PENDING', contactId: contact, renewalMode: str(p.renewalMode) || 'AUTORENEW', transferLock: lockParam(p.transferLock, true), ...(ns ? { ns } : {}),
      });
      return { code: 1001, resData: { roId: existing.roId } };
    },
    'domain.renew': (p) => {
      const d = own(p.domain);
      const years = period(p.period);
      if (!str(p.expiration)) throw fault(2003, 'expiration missing');
      if (str(p.expiration) !== d.exDate.toISOString().slice(0, 10)) throw fault(2004, `expiration ${str(p.expiration)} does not match the current expiration date`);
      d.exDate = addYears(d.exDate, years);
      return { resData: { exDate: writeDate(d.exDate), price: PRICES[d.domain.split('.')[1]!]!.renewalPrice * years, currency: 'EUR' } };
    },
    'domain.update': (p) => {
      const d = own(p.domain);
      const ns = nameservers(p.ns, false);
      if (ns) d.ns = ns;
      d.transferLock = lockParam(p.transferLock, d.transferLock);
      return {};
    },
    'domain.info': (p) => {
      const d = own(p.domain);
      return {
        resData: {
          roId: d.roId, domain: d.domain, status: d.status, crDate: writeDate(new Date()), exDate: writeDate(d.exDate), authCode: d.authCode,
          transferLock: d.transferLock ? 1 : 0, ns: d.ns, registrant: d.contactId, renewalMode: d.renewalMode,
        },
      };
    },
  };

  function dispatch(method: string, params: Params, cookieHeader: string | undefined, setCookie: (v: string) => void) {
    const refused = () => {
      const r = checkInwxRequest(method, params);
      if (r) throw new Fault(r.code, r.msg, r.reason, r.reasonCode, r.details);
    };
    if (method === 'account.login') {
      refused();
      if (params.user !== account.user || params.pass !== account.password) throw fault(2200, 'wrong user or password');
      logins++;
      const id = randomBytes(12).toString('hex');
      sessions.set(id, { unlocked: !options.tfaSecret });
      setCookie(`domrobot=${id}; path=/; HttpOnly`);
      return { resData: { customerId: 1, accountId: 1, tfa: options.tfaSecret ? 'GOOGLE-AUTH' : '0' } };
    }
    const sessionId = /(?:^|;\s*)domrobot=([^;]+)/.exec(cookieHeader ?? '')?.[1];
    const session = sessionId ? sessions.get(sessionId) : undefined;
    if (!session) throw fault(2002, 'not logged in');
    refused();
    if (method === 'account.unlock') {
      const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(options.tfaSecret ?? '') });
      if (!options.tfaSecret || totp.validate({ token: str(params.tan), window: 1 }) === null) throw fault(2200, 'invalid TAN');
      unlocks++;
      session.unlocked = true;
      return {};
    }
    if (!session.unlocked) throw fault(2200, 'account locked: unlock with a TAN first');
    const handler = methods[method];
    if (!handler) throw fault(2400, `the fake does not implement ${method}`);
    return handler(params);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hanging) return; // accepted, never answered: the driver's time budget must end it
      if (tooManyRequests) {
        res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '30' });
        res.end('Too Many Requests');
        return;
      }
      const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' };
      let envelope: Record<string, unknown>;
      try {
        if (req.method !== 'POST' || req.url?.split('?')[0] !== '/jsonrpc/') throw fault(2400, 'unknown endpoint');
        let body: { method?: unknown; params?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
        } catch {
          throw fault(2005, 'invalid JSON');
        }
        const method = str(body.method).toLowerCase();
        const params = (body.params && typeof body.params === 'object' ? body.params : {}) as Params;
        calls.push({ method, params });
        if (tryLater) throw fault(2502);
        const result = dispatch(method, params, req.headers.cookie, (v) => (headers['Set-Cookie'] = v));
        const code = result.code ?? 1000;
        envelope = { code, msg: INWX_RESULT_MESSAGES[code], ...(result.resData !== undefined ? { resData: result.resData } : {}) };
      } catch (err) {
        if (!(err instanceof Fault)) throw err;
        envelope = {
          code: err.code, msg: err.message, ...(err.reason ? { reason: err.reason } : {}), ...(err.reasonCode ? { reasonCode: err.reasonCode } : {}),
          ...(err.details?.length ? { details: err.details } : {}),
        };
      }
      res.writeHead(200, headers);
      res.end(JSON.stringify({ ...envelope, svTRID: randomBytes(6).toString('hex'), runtime: 0.01 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/jsonrpc/`,
    account,
    /** Every call received, method lower-cased, with its params (login included). */
    calls,
    get loginCount() {
      return logins;
    },
    get unlockCount() {
      return unlocks;
    },
    domain: (name: string) => registry.get(name),
    contact: (id: number | string) => contacts.get(Number(id)),
    /** The losing registrars let go: every pending transfer completes (gTLDs gain a year). */
    tick() {
      for (const d of registry.values()) {
        if (d.status !== 'TRANSFER PENDING') continue;
        const tld = d.domain.split('.').pop();
        Object.assign(d, { status: 'OK', ours: true, authCode: randomBytes(8).toString('hex'), exDate: addYears(d.exDate, tld === 'de' || tld === 'eu' ? 0 : 1) });
      }
    },
    /** INWX forgets every session (its timeout, a restart). */
    expireSessions: () => sessions.clear(),
    /** true: every call answers 2502 (session limit), as INWX does under load. */
    setTryLater: (on: boolean) => (tryLater = on),
    /** true: every request gets HTTP 429 with Retry-After and no envelope. */
    setTooManyRequests: (on: boolean) => (tooManyRequests = on),
    /** true: requests are accepted and never answered. */
    setHanging: (on: boolean) => (hanging = on),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeInwx = Awaited<ReturnType<typeof startFakeInwx>>;
