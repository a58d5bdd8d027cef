import type { Env } from '../../env.ts';
import type { VatCheck } from './vat-check.ts';
import { createSimulatedVatCheck } from './simulated.ts';
import { createViesVatCheck } from './vies.ts';
import { createEvatrVatCheck } from './evatr.ts';

/** The one place where the VAT-ID check is chosen (VAT_CHECK=simulated|vies|evatr; issue 24). */
export function createVatCheck(env: Env): VatCheck {
  const { driver, url, timeoutMs } = env.vatCheck;
  if (driver === 'simulated') return createSimulatedVatCheck();
  if (url && !/^https:\/\//.test(url) && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('VAT_CHECK_URL must be https (plain http only for a local fake)');
  const requester = env.company.vatId.toUpperCase().replace(/[\s.\-/]/g, '');
  if (driver === 'evatr') {
    // eVatR answers only requests carrying a German VAT ID (evatr-0004 otherwise).
    if (!/^DE\d{9}$/.test(requester)) throw new Error('VAT_CHECK=evatr needs COMPANY_VAT_ID, a German VAT ID (DE + 9 digits)');
    return createEvatrVatCheck({ timeoutMs, ...(url ? { url } : {}) });
  }
  if (!/^[A-Z]{2}[0-9A-Z+*]{2,12}$/.test(requester)) throw new Error('VAT_CHECK=vies needs COMPANY_VAT_ID, our own VAT ID (for the consultation number)');
  return createViesVatCheck({ timeoutMs, ...(url ? { url } : {}) });
}
