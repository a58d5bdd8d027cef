import { createHash } from 'node:crypto';
import { INVALID_MESSAGE, precheckVatId, splitVatId, unavailable, UNAVAILABLE_MESSAGE, type VatCheck, type VatCheckInput, type VatCheckMatches, type VatCheckResult } from './vat-check.ts';

/**
 * The simulated check (VAT_CHECK=simulated, the default), deterministic so demos and browser tests can
 * steer it by the number alone:
 * - a country without EU VAT IDs, or a number that is not 2–12 letters and digits: invalid (no service asked);
 * - a number ending in 0000: invalid;
 * - a number ending in 9999: unavailable (as if the service were down);
 * - anything else: valid, with the consultation number `SIM-` + 12 hex digits derived from the ID, and every
 *   company detail given reported as matching.
 */
export function createSimulatedVatCheck(opts: { now?: () => Date } = {}): VatCheck {
  const now = opts.now ?? (() => new Date());
  return {
    service: 'simulated',
    async checkVatId(input: VatCheckInput): Promise<VatCheckResult> {
      const checkedAt = now();
      const refused = precheckVatId(input, 'simulated', checkedAt);
      if (refused) return refused;
      const { prefix, number } = splitVatId(input.country, input.vatId);
      if (number.endsWith('9999')) return unavailable('simulated', checkedAt, UNAVAILABLE_MESSAGE);
      if (number.endsWith('0000')) return { status: 'invalid', checkedAt, consultationNumber: null, service: 'simulated', message: INVALID_MESSAGE };
      const digest = createHash('sha256').update(`${prefix}${number}`).digest('hex').slice(0, 12).toUpperCase();
      const matches: VatCheckMatches = {};
      if (input.company) {
        for (const field of ['name', 'street', 'zip', 'city'] as const) if (input.company[field]?.trim()) matches[field] = 'match';
      }
      return { status: 'valid', checkedAt, consultationNumber: `SIM-${digest}`, service: 'simulated', ...(input.company ? { matches } : {}) };
    },
  };
}
