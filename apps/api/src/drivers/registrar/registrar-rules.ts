import { randomBytes } from 'node:crypto';
import { DOMAIN_TLD_INFO, normaliseDomain, validateDomainName, type DomainTld } from '@hp/contract';
import { RegistrarError } from './registrar.ts';

/**
 * Checks every driver applies before it talks to a registry, so a customer's typo is a German INVALID
 * with a precise reason instead of a registrar's "2005 parameter value syntax error".
 */

export const dayOf = (iso: string) => (/^\d{4}-\d{2}-\d{2}/.exec(iso) ? iso.slice(0, 10) : null);

export function addYears(date: Date, years: number): Date {
  const d = new Date(date);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
}

export function newAuthCode() {
  return randomBytes(9).toString('base64url');
}

/** A full name the registry may be asked about, or INVALID with the contract's German reason. */
export function validName(domain: string): { ascii: string; tld: DomainTld } {
  const checked = validateDomainName(domain);
  if ('reason' in checked) throw new RegistrarError('INVALID', checked.reason, `invalid name: ${domain}`);
  if (checked.ascii !== domain) throw new RegistrarError('INVALID', undefined, `not in ASCII form: ${domain}`);
  return checked;
}

export function validNameservers(nameservers: readonly string[]): string[] {
  const list = nameservers.map((n) => normaliseDomain(n));
  if (list.length < 2 || list.length > 13 || list.some((n) => n === null)) {
    throw new RegistrarError('INVALID', 'Bitte geben Sie zwei bis dreizehn gültige Nameserver an (z. B. ns1.example.com).', `nameservers: ${nameservers.join(',')}`);
  }
  if (new Set(list).size !== list.length) throw new RegistrarError('INVALID', 'Bitte geben Sie jeden Nameserver nur einmal an.', 'duplicate nameserver');
  return list as string[];
}

export function validYears(tld: DomainTld, years: number) {
  const { min, max } = DOMAIN_TLD_INFO[tld].years;
  if (!Number.isInteger(years) || years < min || years > max) {
    throw new RegistrarError('INVALID', `Die Laufzeit muss zwischen ${min} und ${max} Jahren liegen.`, `years: ${years}`);
  }
}


/** The contract's verdict on a full name, for check(): the port takes ASCII names only. */
export function nameProblem(domain: string): string | null {
  const checked = validateDomainName(domain);
  if ('reason' in checked) return checked.reason;
  if (checked.ascii !== domain) return 'Bitte geben Sie den Domainnamen in der umgewandelten Form (xn--…) an.';
  return null;
}
