import { z } from 'zod';
import { DOMAIN_TLDS, DOMAIN_AVAILABILITY, domainMessages } from './domain-tlds.ts';
import { VAT_PERCENT } from './pricing.ts';

export * from './domain-tlds.ts';

/** The search as the API takes it: the raw text, parsed on the server with parseDomainSearch. */
export const DomainSearchQuery = z.object({
  q: z.string({ error: domainMessages.empty }).max(2000, { error: domainMessages.tooMany }),
});
export type DomainSearchQuery = z.infer<typeof DomainSearchQuery>;

// ── Prices: list prices for free names, the registry's price plus a margin for premium names ─────────

/** Premium names: the registry's net price for a year plus this margin, plus VAT (decision 024). */
export const DOMAIN_PREMIUM_MARGIN_PERCENT = 20;

/** Gross cents per year of a premium name from the registry's net cents (rounded up to whole euros). */
export function premiumYearCents(registryNetCents: number): number {
  const gross = registryNetCents * (1 + DOMAIN_PREMIUM_MARGIN_PERCENT / 100) * (1 + VAT_PERCENT / 100);
  return Math.ceil(gross / 100) * 100;
}

// ── Search: GET /api/domains/search?q= (public, rate-limited, cached briefly) ─────────────────────────

export const DomainSearchItem = z.object({
  /** ASCII (punycode) name, e.g. xn--mller-kva.de */
  domain: z.string(),
  /** Readable name (Umlaute). */
  unicode: z.string(),
  tld: z.enum(DOMAIN_TLDS),
  status: z.enum(DOMAIN_AVAILABILITY),
  /** German reason when invalid. */
  reason: z.string().nullable(),
  /** Gross cents per year: the list price (free, taken → transfer) or the premium price; null when invalid. */
  yearCents: z.number().int().nullable(),
});
export type DomainSearchItem = z.infer<typeof DomainSearchItem>;

export const DomainSearchResult = z.object({
  /** One entry per name and extension, in the order searched (a name without extension: all six). */
  items: z.array(DomainSearchItem),
  /** Names that could not be searched at all (e.g. characters not allowed), with the German reason. */
  invalid: z.array(z.object({ input: z.string(), reason: z.string() })),
  /** The whole search could not run as typed (nothing typed, too many names). */
  error: z.string().nullable(),
});
export type DomainSearchResult = z.infer<typeof DomainSearchResult>;

// ── Order: POST /api/shop/domain/checkout (same payment flow as servers and hosting) ─────────────────

const Hostname = z.string().trim().toLowerCase().max(253)
  .regex(/^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z][a-z0-9-]{1,62}$/, { error: 'Bitte geben Sie gültige Nameserver an (z. B. ns1.example.de).' });

export const domainOrderMessages = {
  authCodeMissing: 'Bitte geben Sie den Auth-Code für den Transfer ein.',
  authCodeInvalid: 'Der Auth-Code hat 6 bis 64 Zeichen ohne Leerzeichen.',
  years: 'Bitte wählen Sie eine Laufzeit von 1 bis 10 Jahren.',
  nameservers: 'Bitte geben Sie zwei bis vier verschiedene Nameserver an.',
  profileIncomplete: 'Für die Registrierung braucht die Vergabestelle Ihre vollständige Anschrift und Telefonnummer. Bitte ergänzen Sie Ihr Profil und bestellen Sie dann erneut.',
  notFree: 'Diese Domain ist nicht mehr frei. Bitte wählen Sie einen anderen Namen oder beantragen Sie einen Transfer.',
  notTaken: 'Diese Domain ist noch frei: Sie können sie direkt registrieren, ein Transfer ist nicht nötig.',
  held: 'Diese Domain wird gerade von einem anderen Kunden bestellt. Bitte versuchen Sie es in etwa 30 Minuten erneut.',
  ownOpenCheckout: 'Für diese Domain haben Sie bereits eine offene Bestellung. Bitte schließen Sie die Zahlung ab oder brechen Sie sie ab.',
  alreadyOurs: 'Diese Domain wird bereits bei uns verwaltet.',
  notRenewable: 'Diese Domain kann derzeit nicht verlängert werden (Registrierung oder Transfer läuft noch, oder sie ist gelöscht).',
  tooLong: 'Eine Domain kann höchstens 10 Jahre im Voraus bezahlt sein. Bitte wählen Sie weniger Jahre.',
  notActive: 'Diese Änderung ist erst möglich, wenn die Domain aktiv ist.',
} as const;

/** GET /api/shop/domain?domain=&action=: what the order form shows before payment (customer only). */
export const DomainQuoteQuery = z.object({
  domain: z.string({ error: domainMessages.empty }).max(300, { error: domainMessages.totalTooLong }),
  action: z.enum(['register', 'transfer']).default('register'),
});
export const DomainQuote = DomainSearchItem.extend({
  /** free / premium: can be registered; taken: can be transferred; invalid: neither (reason). */
  premium: z.boolean(),
  years: z.object({ min: z.number().int(), max: z.number().int() }),
  /** Profile fields the registry needs that are still empty (German labels); empty: ready to order. */
  missingProfile: z.array(z.string()),
  /** Why this action cannot be ordered now (German), e.g. taken for a registration, held by another order. */
  blocked: z.string().nullable(),
});
export type DomainQuote = z.infer<typeof DomainQuote>;

export const DomainCheckoutInput = z.strictObject({
  /** Full name with extension, as typed (Umlaute allowed); the server validates it with validateDomainName. Not for 'renew'. */
  domain: z.string({ error: domainMessages.empty }).max(300, { error: domainMessages.totalTooLong }).optional(),
  /** 'renew': one's own domain, by id (portal → Verlängern). */
  domainId: z.uuid({ error: 'Domain nicht gefunden.' }).optional(),
  action: z.enum(['register', 'transfer', 'renew'], { error: 'Bitte wählen Sie Registrierung, Transfer oder Verlängerung.' }),
  years: z.number({ error: domainOrderMessages.years }).int({ error: domainOrderMessages.years }).min(1, { error: domainOrderMessages.years }).max(10, { error: domainOrderMessages.years }),
  /** Transfer only: the auth code from the losing registrar. */
  authCode: z.string().trim().regex(/^\S{6,64}$/, { error: domainOrderMessages.authCodeInvalid }).optional(),
  /** Omitted: Musterhost-DNS (PROVIDER_NAMESERVERS). */
  nameservers: z.array(Hostname).min(2, { error: domainOrderMessages.nameservers }).max(4, { error: domainOrderMessages.nameservers })
    .refine((list) => new Set(list).size === list.length, { error: domainOrderMessages.nameservers }).optional(),
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
})
  .refine((v) => v.action !== 'transfer' || v.authCode !== undefined, { error: domainOrderMessages.authCodeMissing, path: ['authCode'] })
  .refine((v) => v.action === 'renew' || v.domain !== undefined, { error: domainMessages.empty, path: ['domain'] })
  .refine((v) => v.action !== 'renew' || v.domainId !== undefined, { error: 'Domain nicht gefunden.', path: ['domainId'] });
export type DomainCheckoutInput = z.infer<typeof DomainCheckoutInput>;

/** The configuration a domain order stores (orders.config). */
export const DomainOrderConfig = z.object({
  domain: z.string(),
  action: z.enum(['register', 'transfer', 'renew']),
  years: z.number().int(),
  nameservers: z.array(z.string()),
  /** Gross cents per year the order was priced with (list or premium). */
  yearCents: z.number().int(),
  premium: z.boolean(),
});
export type DomainOrderConfig = z.infer<typeof DomainOrderConfig>;

// ── Portal: Meine Produkte → Domains ─────────────────────────────────────────────────────────────────

export const DOMAIN_STATUS = ['registering', 'transferring', 'active', 'expired', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUS)[number];
export const DOMAIN_STATUS_LABEL: Record<DomainStatus, string> = {
  registering: 'Wird registriert', transferring: 'Transfer läuft', active: 'Aktiv', expired: 'Abgelaufen', failed: 'Fehlgeschlagen',
};

export const DomainCard = z.object({
  id: z.string(),
  /** ASCII name */
  domain: z.string(),
  unicode: z.string(),
  status: z.enum(DOMAIN_STATUS),
  statusMessage: z.string().nullable(),
  expiresAt: z.string().nullable(),
  autoRenew: z.boolean(),
});
export type DomainCard = z.infer<typeof DomainCard>;
export const DomainList = z.object({ items: z.array(DomainCard) });
export type DomainList = z.infer<typeof DomainList>;

export const DomainIdParams = z.object({ id: z.uuid({ error: 'Domain nicht gefunden.' }) });

export const DomainDetail = DomainCard.extend({
  nameservers: z.array(z.string()),
  /** The nameservers are Musterhost-DNS. */
  providerDns: z.boolean(),
  transferLock: z.boolean(),
  createdAt: z.string(),
  /** Gross cents per year of a renewal. */
  yearCents: z.number().int(),
  /** Renewal possible now (active or expired within the grace period, no renewal running). */
  renewable: z.boolean(),
  /** Until when an expired domain can still be renewed. */
  renewableUntil: z.string().nullable(),
});
export type DomainDetail = z.infer<typeof DomainDetail>;

export const DomainNameserversInput = z.strictObject({
  /** 'provider': Musterhost-DNS; otherwise two to four host names. */
  nameservers: z.union([z.literal('provider'), z.array(Hostname).min(2, { error: domainOrderMessages.nameservers }).max(4, { error: domainOrderMessages.nameservers })
    .refine((list) => new Set(list).size === list.length, { error: domainOrderMessages.nameservers })]),
});
export const DomainTransferLockInput = z.strictObject({ locked: z.boolean() });
export const DomainAutoRenewInput = z.strictObject({ autoRenew: z.boolean() });
/** The auth code is shown only after the password was entered again (and the reveal is logged). */
export const DomainAuthCodeInput = z.strictObject({ password: z.string().min(1, { error: 'Bitte geben Sie Ihr Passwort ein.' }).max(200) });
export const DomainAuthCode = z.object({ authCode: z.string() });
export type DomainAuthCode = z.infer<typeof DomainAuthCode>;
export type DomainNameserversInput = z.infer<typeof DomainNameserversInput>;

/** The order page's part of a domain order (OrderDetail.configuration): the name, what was ordered and for how many years. */
export const DomainOrderSummary = z.object({
  product: z.literal('domain'),
  domain: z.string(), unicode: z.string(), action: z.enum(['register', 'transfer', 'renew']), years: z.number().int(), premium: z.boolean(),
});
export type DomainOrderSummary = z.infer<typeof DomainOrderSummary>;
