import { INVALID_HINT, INVALID_MESSAGE, postJson, precheckVatId, splitVatId, unavailable, UNAVAILABLE_MESSAGE, type VatCheck, type VatCheckInput, type VatCheckMatches, type VatCheckResult, type VatFieldMatch } from './vat-check.ts';

/**
 * VAT_CHECK=vies: the European Commission's VIES REST API, `POST …/vies/rest-api/check-vat-number`.
 *
 * Request body (JSON): `countryCode`, `vatNumber` (without prefix), `requesterMemberStateCode` and
 * `requesterNumber` (our own ID, so VIES returns a consultation number, `requestIdentifier`), and the
 * optional `traderName`, `traderStreet`, `traderPostalCode`, `traderCity` VIES compares with its register
 * (`trader…Match`: VALID | INVALID | NOT_PROCESSED). Errors come as
 * `{ actionSucceed: false, errorWrappers: [{ error, message? }] }`, with HTTP 200 as well as 4xx/5xx.
 * Sources: the EC's REST interface (https://ec.europa.eu/taxation_customs/vies/rest-api/), its SOAP
 * predecessor checkVatService.wsdl (checkVatApprox: the same trader fields and match codes, the fault
 * codes INVALID_INPUT, INVALID_REQUESTER_INFO, SERVICE_UNAVAILABLE, MS_UNAVAILABLE, TIMEOUT, VAT_BLOCKED,
 * IP_BLOCKED, GLOBAL_MAX_CONCURRENT_REQ(_TIME), MS_MAX_CONCURRENT_REQ(_TIME)) and the field names as
 * public clients quote them (see fake-vies.ts).
 */
export const VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number';

/** The error codes that say the ID itself is wrong; every other one says VIES could not decide. */
const VIES_INVALID_ERRORS = new Set(['INVALID_INPUT']);

export interface ViesRequestBody {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string;
  requesterNumber?: string;
  traderName?: string;
  traderStreet?: string;
  traderPostalCode?: string;
  traderCity?: string;
}

export interface ViesOptions {
  url?: string;
  timeoutMs: number;
  now?: () => Date;
}

function matchOf(value: unknown): VatFieldMatch {
  if (value === 'VALID') return 'match';
  if (value === 'INVALID') return 'mismatch';
  return 'unknown';
}

export function viesRequestBody(input: VatCheckInput): ViesRequestBody {
  const { prefix, number } = splitVatId(input.country, input.vatId);
  const requester = input.requester.vatId.toUpperCase().replace(/[\s.\-/]/g, '');
  const body: ViesRequestBody = { countryCode: prefix, vatNumber: number, requesterMemberStateCode: requester.slice(0, 2), requesterNumber: requester.slice(2) };
  const company = input.company;
  if (company) {
    if (company.name.trim()) body.traderName = company.name.trim();
    if (company.street.trim()) body.traderStreet = company.street.trim();
    if (company.zip.trim()) body.traderPostalCode = company.zip.trim();
    if (company.city.trim()) body.traderCity = company.city.trim();
  }
  return body;
}

export function createViesVatCheck(opts: ViesOptions): VatCheck {
  const url = opts.url ?? VIES_URL;
  const now = opts.now ?? (() => new Date());
  return {
    service: 'vies',
    async checkVatId(input: VatCheckInput): Promise<VatCheckResult> {
      const startedAt = now();
      const refused = precheckVatId(input, 'vies', startedAt);
      if (refused) return refused;
      const body = viesRequestBody(input);
      const answer = await postJson(url, body, opts.timeoutMs);
      if ('error' in answer) {
        return unavailable('vies', startedAt, answer.error === 'timeout' ? `${UNAVAILABLE_MESSAGE} (VIES hat nicht rechtzeitig geantwortet.)` : UNAVAILABLE_MESSAGE);
      }
      const json = (answer.json ?? {}) as Record<string, unknown>;
      const errors = Array.isArray(json.errorWrappers) ? (json.errorWrappers as { error?: unknown }[]).map((w) => String(w?.error ?? '')) : [];
      if (errors.length || json.actionSucceed === false) {
        if (errors.some((e) => VIES_INVALID_ERRORS.has(e))) {
          return { status: 'invalid', checkedAt: startedAt, consultationNumber: null, service: 'vies', message: `Die Umsatzsteuer-Identifikationsnummer hat nicht das Format dieses Landes (VIES: INVALID_INPUT). ${INVALID_HINT}` };
        }
        return unavailable('vies', startedAt, `${UNAVAILABLE_MESSAGE} (VIES: ${errors.join(', ') || 'Fehler'})`);
      }
      if (answer.status < 200 || answer.status >= 300 || typeof json.valid !== 'boolean') {
        return unavailable('vies', startedAt, `${UNAVAILABLE_MESSAGE} (VIES: HTTP ${answer.status})`);
      }
      const requestDate = typeof json.requestDate === 'string' ? new Date(json.requestDate) : null;
      const checkedAt = requestDate && !Number.isNaN(requestDate.getTime()) ? requestDate : startedAt;
      const identifier = typeof json.requestIdentifier === 'string' && json.requestIdentifier.trim() ? json.requestIdentifier.trim() : null;
      if (!json.valid) return { status: 'invalid', checkedAt, consultationNumber: identifier, service: 'vies', message: INVALID_MESSAGE };
      const matches: VatCheckMatches = {};
      if (body.traderName !== undefined) matches.name = matchOf(json.traderNameMatch);
      if (body.traderStreet !== undefined) matches.street = matchOf(json.traderStreetMatch);
      if (body.traderPostalCode !== undefined) matches.zip = matchOf(json.traderPostalCodeMatch);
      if (body.traderCity !== undefined) matches.city = matchOf(json.traderCityMatch);
      return { status: 'valid', checkedAt, consultationNumber: identifier, service: 'vies', ...(input.company ? { matches } : {}) };
    },
  };
}
