import { INVALID_HINT, postJson, precheckVatId, splitVatId, unavailable, UNAVAILABLE_MESSAGE, type VatCheck, type VatCheckInput, type VatCheckMatches, type VatCheckResult, type VatFieldMatch } from './vat-check.ts';

/**
 * VAT_CHECK=evatr: the BZSt's confirmation service (eVatR) through its REST API,
 * `POST https://api.evatr.vies.bzst.de/app/v1/abfrage`. The XML-RPC interface (`evatrRPC?UstId_1=…`)
 * was switched off on 30 Nov 2025, so only the REST API is implemented.
 *
 * Request body (JSON): `anfragendeUstid` (our own German ID), `angefragteUstid` (the foreign ID with its
 * prefix), and for a qualified confirmation `firmenname` and `ort` (both required then), `strasse`, `plz`.
 * Answer: `id` (kept as the proof's number), `anfrageZeitpunkt`, `status` (`evatr-0000` = valid; the
 * table below), `gueltigAb`/`gueltigBis`, and `ergFirmenname`, `ergStrasse`, `ergPlz`, `ergOrt` with
 * A (matches), B (does not match), C (not asked), D (not given by the member state).
 * eVatR only confirms foreign IDs: a German ID is answered `evatr-0006`, so this driver does not ask.
 * Sources: BZSt, "Umsatzsteuer-Identifikationsnummer: Bestätigungsverfahren", the service's OpenAPI
 * description (https://api.evatr.vies.bzst.de/api-docs) and its status list
 * (`GET /app/v1/info/statusmeldungen`), as quoted by the client rechtlogisch/evatr-js (src/types.ts,
 * src/constants.ts); see fake-evatr.ts.
 */
export const EVATR_URL = 'https://api.evatr.vies.bzst.de/app/v1/abfrage';

export interface EvatrRequestBody {
  anfragendeUstid: string;
  angefragteUstid: string;
  firmenname?: string;
  ort?: string;
  strasse?: string;
  plz?: string;
}

/** Status codes that confirm the ID (0003: valid, qualified fields missing; 2008: valid with a peculiarity). */
const EVATR_VALID = new Set(['evatr-0000', 'evatr-0003', 'evatr-2008']);
/** Status codes that say the ID is not valid, with our German explanation. */
const EVATR_INVALID: Record<string, string> = {
  'evatr-2001': 'Die Umsatzsteuer-Identifikationsnummer ist laut Bundeszentralamt für Steuern zurzeit nicht vergeben.',
  'evatr-2002': 'Die Umsatzsteuer-Identifikationsnummer ist laut Bundeszentralamt für Steuern noch nicht gültig.',
  'evatr-2006': 'Die Umsatzsteuer-Identifikationsnummer ist laut Bundeszentralamt für Steuern nicht mehr gültig.',
  'evatr-0005': 'Die Umsatzsteuer-Identifikationsnummer hat nicht das Format dieses Landes.',
  'evatr-0012': 'Die Umsatzsteuer-Identifikationsnummer hat nicht das Format dieses Landes.',
  'evatr-2003': 'Das Länderkennzeichen der Umsatzsteuer-Identifikationsnummer ist nicht gültig.',
};

export interface EvatrOptions {
  url?: string;
  timeoutMs: number;
  now?: () => Date;
}

function matchOf(value: unknown): VatFieldMatch {
  if (value === 'A') return 'match';
  if (value === 'B') return 'mismatch';
  return 'unknown';
}

export function evatrRequestBody(input: VatCheckInput): EvatrRequestBody {
  const { prefix, number } = splitVatId(input.country, input.vatId);
  const body: EvatrRequestBody = { anfragendeUstid: input.requester.vatId.toUpperCase().replace(/[\s.\-/]/g, ''), angefragteUstid: `${prefix}${number}` };
  const company = input.company;
  // A qualified confirmation needs name and city together (evatr-0003 otherwise).
  if (company && company.name.trim() && company.city.trim()) {
    body.firmenname = company.name.trim();
    body.ort = company.city.trim();
    if (company.street.trim()) body.strasse = company.street.trim();
    if (company.zip.trim()) body.plz = company.zip.trim();
  }
  return body;
}

export function createEvatrVatCheck(opts: EvatrOptions): VatCheck {
  const url = opts.url ?? EVATR_URL;
  const now = opts.now ?? (() => new Date());
  return {
    service: 'evatr',
    async checkVatId(input: VatCheckInput): Promise<VatCheckResult> {
      const startedAt = now();
      const refused = precheckVatId(input, 'evatr', startedAt);
      if (refused) return refused;
      if (splitVatId(input.country, input.vatId).prefix === 'DE') {
        return unavailable('evatr', startedAt, 'Deutsche Umsatzsteuer-Identifikationsnummern bestätigt das Bundeszentralamt für Steuern nicht; für Kunden in Deutschland gilt ohnehin die deutsche Umsatzsteuer.');
      }
      const body = evatrRequestBody(input);
      const answer = await postJson(url, body, opts.timeoutMs);
      if ('error' in answer) {
        return unavailable('evatr', startedAt, answer.error === 'timeout' ? `${UNAVAILABLE_MESSAGE} (Das Bundeszentralamt für Steuern hat nicht rechtzeitig geantwortet.)` : UNAVAILABLE_MESSAGE);
      }
      const json = (answer.json ?? {}) as Record<string, unknown>;
      const status = typeof json.status === 'string' ? json.status : '';
      const stamp = typeof json.anfrageZeitpunkt === 'string' ? new Date(json.anfrageZeitpunkt) : null;
      const checkedAt = stamp && !Number.isNaN(stamp.getTime()) ? stamp : startedAt;
      const id = typeof json.id === 'string' && json.id.trim() ? json.id.trim() : null;
      if (EVATR_VALID.has(status)) {
        const matches: VatCheckMatches = {};
        if (body.firmenname !== undefined) matches.name = matchOf(json.ergFirmenname);
        if (body.strasse !== undefined) matches.street = matchOf(json.ergStrasse);
        if (body.plz !== undefined) matches.zip = matchOf(json.ergPlz);
        if (body.ort !== undefined) matches.city = matchOf(json.ergOrt);
        return { status: 'valid', checkedAt, consultationNumber: id, service: 'evatr', ...(input.company ? { matches } : {}) };
      }
      const invalid = EVATR_INVALID[status];
      if (invalid) return { status: 'invalid', checkedAt, consultationNumber: id, service: 'evatr', message: `${invalid} ${INVALID_HINT}` };
      // 0011, 0013, 1001–1004, 2004, 2007, 2011, 3011: not available; 0004, 0006, 2005: our own request or ID.
      return unavailable('evatr', startedAt, `${UNAVAILABLE_MESSAGE} (BZSt: ${status || `HTTP ${answer.status}`})`);
    },
  };
}
