import { desc, eq } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import { vatIdChecks, type VatIdCheckRow } from '../../db/schema/index.ts';
import { splitVatId, type VatCheckCompany, type VatCheckMatches } from '../../drivers/vat/vat-check.ts';

/**
 * A customer's VAT-ID checks and their proof (issue 24, §18e UStG). Every check is recorded, whatever
 * its outcome, so the customer page and the invoice can show what was known when: an unavailable
 * service is recorded too (the customer is billed as a consumer then, and told why).
 */
export interface VatIdCheck {
  id: string;
  userId: string;
  country: string;
  vatId: string;
  status: VatIdCheckRow['status'];
  service: VatIdCheckRow['service'];
  consultationNumber: string | null;
  matches: VatCheckMatches | null;
  message: string | null;
  checkedAt: Date;
}

export interface VatIdCheckInput {
  /** ISO 3166-1 alpha-2 of the customer's country. */
  country: string;
  vatId: string;
  company?: VatCheckCompany;
}

function toCheck(row: VatIdCheckRow): VatIdCheck {
  return {
    id: row.id,
    userId: row.userId,
    country: row.country,
    vatId: row.vatId,
    status: row.status,
    service: row.service,
    consultationNumber: row.consultationNumber,
    matches: (row.matches as VatCheckMatches | null) ?? null,
    message: row.message,
    checkedAt: row.checkedAt,
  };
}

/** The ID as stored and compared: VAT prefix and number, e.g. ATU12345678 or EL094014201. */
export function normalizedVatId(country: string, vatId: string): string {
  const { prefix, number } = splitVatId(country, vatId);
  return `${prefix}${number}`;
}

/** Checks the ID with the configured service (our own VAT ID as requester) and records the answer. */
export async function checkAndRecord(deps: Pick<Deps, 'db' | 'env' | 'vatCheck'>, userId: string, input: VatIdCheckInput): Promise<VatIdCheck> {
  const country = input.country.trim().toUpperCase();
  const result = await deps.vatCheck.checkVatId({ country, vatId: input.vatId, requester: { vatId: deps.env.company.vatId }, ...(input.company ? { company: input.company } : {}) });
  const [row] = await deps.db.insert(vatIdChecks).values({
    userId,
    country,
    vatId: normalizedVatId(country, input.vatId),
    status: result.status,
    service: result.service,
    consultationNumber: result.consultationNumber,
    matches: result.matches ?? null,
    message: result.message ?? null,
    checkedAt: result.checkedAt,
  }).returning();
  return toCheck(row!);
}

/** The customer's most recent check, or null when the customer was never checked. */
export async function latestCheck(deps: Pick<Deps, 'db'>, userId: string): Promise<VatIdCheck | null> {
  const [row] = await deps.db.select().from(vatIdChecks).where(eq(vatIdChecks.userId, userId)).orderBy(desc(vatIdChecks.checkedAt), desc(vatIdChecks.createdAt)).limit(1);
  return row ? toCheck(row) : null;
}

/**
 * Whether the ID must be checked again before an invoice: never checked, the service was unavailable,
 * the check is older than `maxAgeDays` (VAT_CHECK_MAX_AGE_DAYS), or the customer's ID changed since.
 */
export function needsRecheck(check: Pick<VatIdCheck, 'status' | 'checkedAt' | 'country' | 'vatId'> | null, now: Date, maxAgeDays: number, current?: { country: string; vatId: string }): boolean {
  if (!check) return true;
  if (check.status === 'unavailable') return true;
  if (current && normalizedVatId(current.country, current.vatId) !== check.vatId) return true;
  return now.getTime() - check.checkedAt.getTime() > maxAgeDays * 24 * 60 * 60 * 1000;
}
