import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  countryName, decideOrderTax, isCountryCode, isEuMember, normalizeVatId,
  type CountryCode, type OrderTax, type TaxCustomer, type TaxView,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { invoices, users } from '../../db/schema/index.ts';
import { checkAndRecord, latestCheck, needsRecheck, normalizedVatId, type VatIdCheck } from './vat-id.service.ts';

/** The check service is needed only to re-check an ID before an order. */
type TaxDeps = Pick<Deps, 'db' | 'env'> & Partial<Pick<Deps, 'vatCheck'>>;

/** The calendar year of a moment in Germany (the threshold counts German calendar years). */
const berlinYear = (d: Date) => Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(d));

/**
 * Net cross-border consumer sales (§3a Abs. 5 Satz 3 UStG) of the previous and the current calendar
 * year, from the issued documents: every invoice whose decision marked an EU consumer outside Germany,
 * less its credit notes (which copy the decision).
 */
export async function crossBorderConsumerNet(db: Db | Tx, now: Date): Promise<{ previousYear: number; currentYear: number }> {
  const year = berlinYear(now);
  const rows = await db.select({
    year: invoices.year,
    net: sql<string>`coalesce(sum(case when ${invoices.kind} = 'credit_note' then -${invoices.netCents} else ${invoices.netCents} end), 0)`,
  }).from(invoices)
    .where(and(inArray(invoices.year, [year - 1, year]), sql`(${invoices.document} -> 'tax' ->> 'crossBorderConsumer') = 'true'`))
    .groupBy(invoices.year);
  const of = (y: number) => Number(rows.find((r) => r.year === y)?.net ?? 0);
  return { previousYear: of(year - 1), currentYear: of(year) };
}

const proofOf = (check: VatIdCheck): NonNullable<OrderTax['vatCheck']> => ({
  id: check.id, status: check.status, service: check.service, consultationNumber: check.consultationNumber, checkedAt: check.checkedAt.toISOString(),
});

/**
 * The customer's tax facts: country, business status, VAT ID and the check of that ID. With `recheck`
 * (before an order) an EU business ID whose last check is missing, failed to reach the service, belongs
 * to another ID or is older than VAT_CHECK_MAX_AGE_DAYS is checked again first (§18e UStG); a service
 * that is down then gives an "unavailable" check, which bills the customer as a consumer and says why.
 */
export async function customerTaxFacts(deps: TaxDeps, userId: string, opts: { recheck: boolean }): Promise<TaxCustomer | null> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const country: CountryCode = isCountryCode(user.country) ? user.country : 'DE';
  // Only an ID in the format of the customer's country counts (one kept from another country never
  // reaches the check service or an invoice).
  const vatId = user.business && user.vatId && isEuMember(country) ? normalizeVatId(country, user.vatId) : null;
  const address = { company: user.companyName.trim(), street: user.street, zipCode: user.zipCode, city: user.city };
  if (!vatId) return { country, business: user.business, vatId: null, check: null, address };
  let check = await latestCheck(deps, user.id);
  const current = { country, vatId };
  const fits = (c: VatIdCheck | null) => c !== null && c.country === country && c.vatId === normalizedVatId(country, vatId);
  if (opts.recheck && deps.vatCheck && country !== 'DE' && (needsRecheck(check, new Date(), deps.env.vatCheck.maxAgeDays, current) || !fits(check))) {
    check = await checkAndRecord({ db: deps.db, env: deps.env, vatCheck: deps.vatCheck }, user.id, {
      country, vatId, company: { name: user.companyName, street: user.street, zip: user.zipCode, city: user.city },
    });
  }
  return { country, business: user.business, vatId, check: check && fits(check) ? proofOf(check) : null, address };
}

/**
 * The tax decision of a sale of `netCents` (the list price's net, the same for everyone) to a customer
 * whose facts were read (and the ID checked again) before the order's transaction. The threshold's
 * current year includes this sale: the one that crosses 10,000 € is already taxed in the customer's
 * country.
 */
export async function decideTaxForOrder(db: Db | Tx, settings: Deps['env']['tax'], customer: TaxCustomer, netCents: number, now = new Date()): Promise<OrderTax> {
  const totals = await crossBorderConsumerNet(db, now);
  return decideOrderTax(customer, settings, { previousYear: totals.previousYear, currentYear: totals.currentYear + netCents }, now);
}

const GERMAN_VISITOR: TaxCustomer = { country: 'DE', business: false, vatId: null, check: null };

/**
 * What the shop shows a customer before ordering: the decision an order placed now would get (without
 * checking the ID again, and with a sale of one cent in the threshold: an order that crosses it is
 * priced at checkout, and the payment page shows that amount before anything is paid). Visitors who
 * are not signed in see German consumer prices.
 */
export async function taxViewFor(deps: TaxDeps, userId: string | null): Promise<TaxView> {
  const customer = (userId ? await customerTaxFacts(deps, userId, { recheck: false }) : null) ?? GERMAN_VISITOR;
  const totals = await crossBorderConsumerNet(deps.db, new Date());
  // Any sale now adds at least a cent: exactly 10,000 € so far means the next sale crosses the threshold.
  const decision = decideOrderTax(customer, deps.env.tax, { previousYear: totals.previousYear, currentYear: totals.currentYear + 1 }, new Date());
  return {
    ratePercent: decision.ratePercent,
    category: decision.category,
    placeOfSupply: decision.placeOfSupply,
    priceMode: decision.priceMode,
    priceLabel: decision.priceLabel,
    invoiceNote: decision.invoiceNote,
    explanation: decision.explanation ?? null,
    country: customer.country,
    countryName: countryName(customer.country),
    business: customer.business,
    signedIn: userId !== null,
  };
}
