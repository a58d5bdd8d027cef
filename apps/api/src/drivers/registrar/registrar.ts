/**
 * The port every domain registrar implementation fills: `simulated` (embedded default, a registry in our
 * database) and `inwx` (INWX DomRobot JSON-RPC, ../shared/integrations/domains-inwx.md). One contract
 * suite (registrar.contract.ts) runs against both; the INWX driver runs against the fake INWX server
 * (inwx/fake-inwx.ts).
 *
 * Names are full ASCII names (`xn--mller-kva.de`), already validated with validateDomainName from the
 * contract; dates are ISO 8601 strings (UTC); money is integer cents, net, EUR, per year. The registrar
 * never renews or bills by itself (INWX: renewalMode AUTOEXPIRE on every create and transfer): the
 * portal renews explicitly after the customer has paid.
 */
import { PROVIDER_NAMESERVERS } from '@hp/contract';

/** The provider's own nameservers ("Musterhost-DNS"), the default for new domains. */
export const DEFAULT_NAMESERVERS: readonly string[] = PROVIDER_NAMESERVERS;

/** One name's availability as the registry answers it (domain.check). */
export type DomainAvailability =
  | { domain: string; status: 'free' }
  /** Registered by someone (a transfer with an auth code may bring it to us). */
  | { domain: string; status: 'taken' }
  /** Not registrable; `reason` is German and fit for the customer. */
  | { domain: string; status: 'invalid'; reason: string }
  /** Free, but the registry asks a premium price: net cents per year (INWX: the create price of domain.check). */
  | { domain: string; status: 'premium'; priceCents: number };

/** The registrar's own prices for one extension: net cents per year (what we pay, not what we sell for). */
export interface TldPrices {
  tld: string;
  currency: 'EUR';
  createCents: number;
  renewCents: number;
  transferCents: number;
}

/** The registrant (also admin, tech and billing contact), taken from the customer's profile. */
export interface RegistrantContact {
  /** Person's full name. */
  name: string;
  /** Company name; set → the contact is an organisation. */
  company?: string | null;
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2, e.g. DE. */
  countryCode: string;
  /** As the customer typed it, e.g. "+49 30 123456"; drivers convert it to the registry form (+49.30123456). */
  phone: string;
  email: string;
}

export interface RegisterSpec {
  domain: string;
  /** Whole years within the extension's DOMAIN_TLD_INFO[tld].years. */
  years: number;
  /** From saveContact. */
  contactId: string;
  /** At least two host names; DEFAULT_NAMESERVERS unless the customer chose others. */
  nameservers: readonly string[];
}

export interface TransferSpec {
  domain: string;
  /** The auth code (AuthInfo) the customer got from the losing registrar. */
  authCode: string;
  contactId: string;
  /** Omitted: the domain keeps the nameservers it has. */
  nameservers?: readonly string[];
}

export interface RenewSpec {
  domain: string;
  years: number;
  /** The expiry the registrar has now (info().expiresAt): a renewal for another expiry is refused (INVALID). */
  currentExpiry: string;
}

/**
 * active: in our account and resolving; pending: a registration or transfer the registry has not finished;
 * expired: past its expiry and not renewed (in the registry's redemption); failed: a transfer or
 * registration the registry refused after accepting it.
 */
export type RegistrarDomainStatus = 'active' | 'pending' | 'expired' | 'failed';

export interface DomainInfo {
  domain: string;
  status: RegistrarDomainStatus;
  /** null while pending (the registry has not set it yet). */
  expiresAt: string | null;
  nameservers: string[];
  transferLock: boolean;
}

/** Result of register and transfer. `pending` is finished by polling info() (a durable job, not a timer). */
export interface DomainOrderResult {
  status: 'active' | 'pending';
  /** null while pending. */
  expiresAt: string | null;
}

export type RegistrarErrorCode =
  /** Registrar not reachable or too slow (time budget). */
  | 'UNAVAILABLE'
  /** The registrar asks us to slow down (INWX 2502 session limit, HTTP 429): a retry later will work. */
  | 'TRY_LATER'
  /** The name is registered already (INWX 2302), e.g. someone was faster between check and register. */
  | 'TAKEN'
  /** Not in our account (INWX 2303); during a transfer in also "not yet arrived". */
  | 'NOT_FOUND'
  /** Wrong auth code for a transfer (INWX 2202). */
  | 'AUTH_CODE'
  /** The domain's status forbids it (INWX 2304): transfer lock, a pending operation, too early. */
  | 'PROHIBITED'
  /** The registrar refused a value (INWX 2003/2004/2005); detail says which (e.g. a wrong expiry on renew). */
  | 'INVALID'
  /** Login refused: configuration, not the customer's fault. */
  | 'AUTH'
  /** Anything else the registrar refused; detail keeps its text. */
  | 'REMOTE_FAULT';

export class RegistrarError extends Error {
  /** `detail` keeps the registrar's own text (code, msg, reason) for the log; `message` is for the customer. */
  constructor(readonly code: RegistrarErrorCode, message: string = registrarMessages[code], readonly detail?: string) {
    super(message);
  }
}

export const registrarMessages: Record<RegistrarErrorCode, string> = {
  UNAVAILABLE: 'Der Domain-Registrar ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.',
  TRY_LATER: 'Der Domain-Registrar ist gerade ausgelastet. Bitte versuchen Sie es später erneut.',
  TAKEN: 'Diese Domain ist bereits vergeben.',
  NOT_FOUND: 'Diese Domain wurde bei unserem Registrar nicht gefunden.',
  AUTH_CODE: 'Der Auth-Code ist nicht korrekt. Bitte prüfen Sie ihn beim bisherigen Anbieter.',
  PROHIBITED: 'Der Status der Domain lässt diese Änderung derzeit nicht zu (z. B. eine aktive Transfersperre).',
  INVALID: 'Der Domain-Registrar hat die Angaben abgelehnt. Bitte prüfen Sie Ihre Eingabe.',
  AUTH: 'Die Anmeldung beim Domain-Registrar ist fehlgeschlagen. Bitte wenden Sie sich an den Support.',
  REMOTE_FAULT: 'Der Domain-Registrar hat den Auftrag abgelehnt. Bitte wenden Sie sich an den Support.',
};

export interface RegistrarDriver {
  readonly kind: 'simulated' | 'inwx';

  /**
   * Availability of several full names at once (at most DOMAIN_SEARCH_MAX × 6), in the given order. A
   * name our own rules refuse comes back `invalid` with the contract's reason and is never sent on.
   */
  check(domains: string[]): Promise<DomainAvailability[]>;
  /** The registrar's prices for these extensions; an extension it does not sell is left out. */
  prices(tlds: string[]): Promise<TldPrices[]>;

  /**
   * Creates the registrant contact (existingId null) or updates it (the customer changed the profile);
   * returns the id to keep on the customer. An existing id the registrar no longer knows is created anew.
   */
  saveContact(existingId: string | null, contact: RegistrantContact): Promise<string>;

  /**
   * Registers a free name (renewalMode AUTOEXPIRE). TAKEN when someone was faster; exactly one of two
   * racing calls wins. A premium name is registered like any other: the caller must have sold it at the
   * premium price from check() (whether INWX wants that price confirmed on create is unverified).
   */
  register(spec: RegisterSpec): Promise<DomainOrderResult>;
  /** Transfers a name in; usually pending (INWX 1001) until the losing registrar lets go. Wrong code: AUTH_CODE. */
  transfer(spec: TransferSpec): Promise<DomainOrderResult>;
  /** Extends by `years` from the current expiry; answers the new expiry. */
  renew(spec: RenewSpec): Promise<{ expiresAt: string }>;

  setNameservers(domain: string, nameservers: readonly string[]): Promise<void>;
  setTransferLock(domain: string, locked: boolean): Promise<void>;
  /** The auth code for a transfer out (show it only after the customer re-entered the password, and log it). */
  getAuthCode(domain: string): Promise<string>;

  /**
   * Status, expiry, nameservers and lock of a domain in our account. A transfer in that the registry has
   * not yet moved into the account is NOT_FOUND (INWX 2303) or `pending`: a poller treats both as
   * "still pending" until its own deadline.
   */
  info(domain: string): Promise<DomainInfo>;
}
