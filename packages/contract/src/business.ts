import { z } from 'zod';
import { COUNTRY_CODES, COUNTRY_OPTIONS, isEuMember, type CountryCode } from './countries.ts';
import { taxMessages, vatIdFormatMessage } from './tax.ts';

/**
 * The country and business fields the profile and the registration share (issue 24), apart from
 * profile.ts because the registration's schema (auth.ts) needs them and profile.ts imports auth.ts.
 */

/** Every ISO 3166-1 country (issue 24); before, only DE, AT and CH. */
export const Country = z.enum(COUNTRY_CODES as [CountryCode, ...CountryCode[]], { error: taxMessages.unknownCountry });
export type Country = z.infer<typeof Country>;
/** German names by code, in display order (the EU first); `COUNTRY_OPTIONS` also says which are in the EU. */
export const countryLabels: Record<CountryCode, string> = Object.fromEntries(COUNTRY_OPTIONS.map((o) => [o.code, o.label])) as Record<CountryCode, string>;

export const profileMessages = {
  companyNameRequired: 'Bitte geben Sie den Namen Ihres Unternehmens an.',
  vatIdConfirmed: (details: string) => `Ihre USt-IdNr. wurde bestätigt (${details}).`,
  vatIdNotChecked: 'Ihre USt-IdNr. wurde noch nicht geprüft.',
} as const;

/** The VAT-ID check services by driver name (VAT_CHECK), as the customer and staff see them. */
export const vatCheckServiceLabels = {
  vies: 'VIES der EU-Kommission',
  evatr: 'eVatR des Bundeszentralamts für Steuern',
  simulated: 'simulierte Prüfung',
} as const;
export const vatCheckStatusLabels = { valid: 'gültig', invalid: 'ungültig', unavailable: 'Prüfdienst nicht erreichbar' } as const;

export type BusinessFields = { country: string; companyName: string; business?: boolean | undefined; vatId?: string | undefined };

/**
 * Issue 24: a business customer names the company; a VAT ID is checked for the country's format (the
 * tax engine's German message) and is only taken for EU countries (for Germany it is optional, as
 * everywhere; outside the EU there is none to check).
 */
export function checkBusinessFields(v: BusinessFields, ctx: z.RefinementCtx) {
  if (v.business && !v.companyName) ctx.addIssue({ code: 'custom', message: profileMessages.companyNameRequired, path: ['companyName'] });
  const vatId = v.vatId ?? '';
  if (!vatId) return;
  if (v.business === false) return; // a consumer's ID is dropped by the server, not refused
  if (!isEuMember(v.country)) return ctx.addIssue({ code: 'custom', message: taxMessages.vatIdNotEu, path: ['vatId'] });
  const problem = vatIdFormatMessage(v.country, vatId);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['vatId'] });
}


/** GET /api/shop/tax: how the shop shows the signed-in customer's prices (issue 24; `TaxView` in tax.ts). */
export const TaxViewResponse = z.object({
  ratePercent: z.number(),
  category: z.enum(['S', 'AE', 'O']),
  placeOfSupply: Country,
  priceMode: z.enum(['gross', 'net']),
  priceLabel: z.string(),
  invoiceNote: z.string(),
  explanation: z.string().nullable(),
  country: Country,
  countryName: z.string(),
  business: z.boolean(),
  signedIn: z.boolean(),
});
