/**
 * A local fake of the VIES REST API for tests: `POST /taxation_customs/vies/rest-api/check-vat-number`.
 * Derived from the interface the EC publishes (https://ec.europa.eu/taxation_customs/vies/rest-api/ and
 * the SOAP description checkVatService.wsdl whose checkVatApprox carries the same fields), with the field
 * names and answer shapes as public clients quote them (e.g. ex_vat's VIES adapter, Smartstore's
 * CheckVatNumberRequestMessage, the VIES test-service list of error codes):
 * - the request fields `countryCode`, `vatNumber`, `requesterMemberStateCode`, `requesterNumber`,
 *   `traderName`, `traderCompanyType`, `traderStreet`, `traderPostalCode`, `traderCity`;
 * - the answer `countryCode, vatNumber, requestDate, valid, requestIdentifier, name, address, trader…,
 *   trader…Match` (VALID | INVALID | NOT_PROCESSED; `---` for a name or address not given);
 * - errors as `{ actionSucceed: false, errorWrappers: [{ error, message }] }`.
 * Refused like VIES: a body that is not JSON, an unknown country code or an empty number (INVALID_INPUT),
 * a requester given by half or with an unknown country (INVALID_REQUESTER_INFO). Stricter than VIES,
 * on purpose: an unknown field name is INVALID_INPUT too, so a typo in the driver cannot pass unseen.
 * A request without requester is answered, but with an empty `requestIdentifier` (no proof).
 * Test controls: `register` a company, `failWith` an error code, `down` (HTTP 503 from the gateway),
 * `slow` (answer after a delay). Plain node:http on 127.0.0.1 with a random port.
 */
import http from 'node:http';
import { closeFake, FakeControls } from './fake-controls.ts';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { VIES_PREFIXES } from './vat-check.ts';

export const VIES_PATH = '/taxation_customs/vies/rest-api/check-vat-number';
const FIELDS = new Set(['countryCode', 'vatNumber', 'requesterMemberStateCode', 'requesterNumber', 'traderName', 'traderCompanyType', 'traderStreet', 'traderPostalCode', 'traderCity']);

export interface FakeViesCompany {
  countryCode: string;
  vatNumber: string;
  name: string;
  street: string;
  postalCode: string;
  city: string;
}

export interface FakeViesRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeVies {
  /** The check-vat-number address, for createViesVatCheck({ url }). */
  url: string;
  requests: FakeViesRequest[];
  register(company: FakeViesCompany): void;
  /** Every check answers with this VIES error code (HTTP 200 unless given). */
  failWith(code: string, httpStatus?: number): void;
  /** The gateway answers HTTP 503 with an HTML page. */
  down(): void;
  /** Answers only after this many milliseconds. */
  slow(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

const norm = (s: string) => s.toUpperCase().replace(/[^0-9A-Z]/g, '');

export async function startFakeVies(): Promise<FakeVies> {
  const registry = new Map<string, FakeViesCompany>();
  const requests: FakeViesRequest[] = [];
  const ctl = new FakeControls<{ code: string; status: number }>();
  const seed = () => registry.set('ATU12345678', { countryCode: 'AT', vatNumber: 'U12345678', name: 'Alpenhost GmbH', street: 'Mariahilfer Straße 1', postalCode: '1060', city: 'Wien' });
  seed();

  const error = (res: http.ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: code, message: code }] }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: body ?? text });
      setTimeout(() => answer(req, res, body), ctl.delayMs);
    });
  });

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => {
    if (res.destroyed) return;
    if (req.url !== VIES_PATH) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' });
      res.end();
      return;
    }
    if (ctl.isDown) {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return error(res, 400, 'INVALID_INPUT');
    const b = body as Record<string, unknown>;
    if (Object.keys(b).some((k) => !FIELDS.has(k))) return error(res, 400, 'INVALID_INPUT');
    if (Object.values(b).some((v) => v !== undefined && v !== null && typeof v !== 'string')) return error(res, 400, 'INVALID_INPUT');
    const countryCode = String(b.countryCode ?? '');
    const vatNumber = String(b.vatNumber ?? '');
    if (!(VIES_PREFIXES as readonly string[]).includes(countryCode) || !/^[0-9A-Za-z+*]{2,12}$/.test(vatNumber)) return error(res, 400, 'INVALID_INPUT');
    const rCountry = b.requesterMemberStateCode as string | undefined;
    const rNumber = b.requesterNumber as string | undefined;
    if (Boolean(rCountry) !== Boolean(rNumber)) return error(res, 400, 'INVALID_REQUESTER_INFO');
    if (rCountry && (!(VIES_PREFIXES as readonly string[]).includes(rCountry) || !/^[0-9A-Za-z+*]{2,12}$/.test(rNumber ?? ''))) return error(res, 400, 'INVALID_REQUESTER_INFO');
    if (ctl.fault) return error(res, ctl.fault.status, ctl.fault.code);

    const company = registry.get(`${countryCode}${vatNumber.toUpperCase()}`);
    const requestIdentifier = rCountry ? `WAPI${randomBytes(6).toString('base64url').slice(0, 12)}` : '';
    const match = (given: unknown, registered: string | undefined) => {
      if (typeof given !== 'string' || !given.trim()) return 'NOT_PROCESSED';
      return registered !== undefined && norm(given) === norm(registered) ? 'VALID' : 'INVALID';
    };
    const out: Record<string, unknown> = {
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid: Boolean(company),
      requestIdentifier,
      name: company?.name ?? '---',
      address: company ? `${company.street}\n${company.postalCode} ${company.city}` : '---',
      traderName: b.traderName ?? '',
      traderStreet: b.traderStreet ?? '',
      traderPostalCode: b.traderPostalCode ?? '',
      traderCity: b.traderCity ?? '',
      traderCompanyType: b.traderCompanyType ?? '',
    };
    if (company) {
      out.traderNameMatch = match(b.traderName, company.name);
      out.traderStreetMatch = match(b.traderStreet, company.street);
      out.traderPostalCodeMatch = match(b.traderPostalCode, company.postalCode);
      out.traderCityMatch = match(b.traderCity, company.city);
      out.traderCompanyTypeMatch = 'NOT_PROCESSED';
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out));
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${VIES_PATH}`,
    requests,
    register: (c) => registry.set(`${c.countryCode}${c.vatNumber.toUpperCase()}`, c),
    failWith: (code, httpStatus = 200) => {
      ctl.fault = { code, status: httpStatus };
    },
    down: () => {
      ctl.isDown = true;
    },
    slow: (ms) => {
      ctl.delayMs = ms;
    },
    reset: () => {
      registry.clear();
      seed();
      requests.length = 0;
      ctl.reset();
    },
    close: () => closeFake(server),
  };
}
