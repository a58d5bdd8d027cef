import { countryName, isCountryCode, isEuMember, normalizeVatId, profileMessages, taxTreatment, vatCheckServiceLabels, vatIdFormatMessage, type VatCheckSummary } from '@hp/contract';
import type { users } from '../../db/schema/index.ts';
import type { VatIdCheck } from './vat-id.service.ts';

type UserRow = typeof users.$inferSelect;

const germanDate = (d: Date) => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);

/**
 * What the customer is told about the latest check of their VAT ID (issue 24): the confirmation with its
 * proof, or the tax engine's explanation of why they are billed as a consumer. Only a check of the ID
 * and country on file counts; null when there is none.
 *
 * The engine is asked without the threshold state and the settings of the next step (cross-border sales
 * 0, no destination taxation, not registered in Switzerland): it says "deutsche Umsatzsteuer" then,
 * which is what invoices charge until prices and invoices follow the engine.
 */
export function vatCheckSummary(user: Pick<UserRow, 'country' | 'vatId'>, check: VatIdCheck | null): VatCheckSummary | null {
  if (!check || !user.vatId || check.vatId !== user.vatId || check.country !== user.country) return null;
  let message: string;
  if (check.status === 'valid') {
    const details = [vatCheckServiceLabels[check.service], check.consultationNumber ? `Abfragenummer ${check.consultationNumber}` : null, `am ${germanDate(check.checkedAt)}`].filter(Boolean).join(', ');
    message = profileMessages.vatIdConfirmed(details);
  } else {
    const explanation = isCountryCode(user.country)
      ? taxTreatment({
        sellerCountry: 'DE', customerCountry: user.country, business: true, vatId: { status: check.status },
        crossBorderConsumerNetCents: { previousYear: 0, currentYear: 0 }, destinationTaxationOpted: false, swissRegistered: false,
      }, check.checkedAt).explanation
      : undefined;
    // Germany: the status changes nothing about the tax; the service's own German words then.
    message = explanation ?? check.message ?? profileMessages.vatIdNotChecked;
  }
  return { status: check.status, vatId: check.vatId, service: check.service, consultationNumber: check.consultationNumber, checkedAt: check.checkedAt.toISOString(), message };
}

/**
 * The business fields to store from a profile change: a consumer keeps no VAT ID, and only an EU
 * company has one. Returns the German message when the ID does not fit the country (a client that left
 * the ID out but changed the country).
 */
export function businessFields(current: Pick<UserRow, 'business' | 'vatId'>, input: { country: string; business?: boolean | undefined; vatId?: string | undefined }):
  { business: boolean; vatId: string | null } | { error: string } {
  const business = input.business ?? current.business;
  const given = (input.vatId ?? current.vatId ?? '').trim();
  if (!business || !given) return { business, vatId: null };
  if (!isEuMember(input.country)) {
    // An ID kept from before the country moved out of the EU is dropped; a new one is refused (the schema).
    return { business, vatId: null };
  }
  const normalized = normalizeVatId(input.country, given);
  if (!normalized) return { error: vatIdFormatMessage(input.country, given) ?? `Die Umsatzsteuer-Identifikationsnummer passt nicht zu ${countryName(input.country)}.` };
  return { business, vatId: normalized };
}
