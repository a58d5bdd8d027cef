/**
 * A local fake of the BZSt eVatR REST API for tests: `POST /app/v1/abfrage`. Derived from the service's
 * published OpenAPI description (https://api.evatr.vies.bzst.de/api-docs) and its status list
 * (`/app/v1/info/statusmeldungen`) as the client rechtlogisch/evatr-js quotes them (src/types.ts:
 * `anfragendeUstid, angefragteUstid, firmenname, ort, strasse, plz` → `id, anfrageZeitpunkt, status,
 * gueltigAb, gueltigBis, ergFirmenname, ergStrasse, ergPlz, ergOrt`; src/constants.ts: each status with
 * its HTTP code). Modelled statuses:
 * - evatr-0000 (200) valid; with a qualified request the erg… fields: A match, B mismatch, C not asked,
 *   D not given by the member state (a registered company without that detail);
 * - evatr-0003 (400) valid, but only one of firmenname/ort given;
 * - evatr-2001 (404) not assigned; evatr-2006 (200) no longer valid, with gueltigAb/gueltigBis;
 * - evatr-0002 (400) a required field missing; evatr-0004 (400) our ID not a German one;
 *   evatr-0006 (403) a German ID asked (eVatR confirms foreign IDs only); evatr-2003 (400) an unknown
 *   country prefix; evatr-0012 (400) a number outside the scheme; evatr-0007 (403) a body that is not a
 *   JSON object, or (stricter than the service, on purpose) an unknown field name;
 * - evatr-0011 (503) when told to be down; any status when told to fail with it.
 * Every answer carries `id`, `anfrageZeitpunkt` and `status`. Test controls as in fake-vies.ts.
 */
import http from 'node:http';
import { closeFake, FakeControls } from './fake-controls.ts';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { VIES_PREFIXES } from './vat-check.ts';

export const EVATR_PATH = '/app/v1/abfrage';
const FIELDS = new Set(['anfragendeUstid', 'angefragteUstid', 'firmenname', 'ort', 'strasse', 'plz']);

export interface FakeEvatrCompany {
  /** With prefix, e.g. ATU12345678. */
  vatId: string;
  name: string;
  street?: string;
  zip?: string;
  city: string;
  /** Set: the ID was valid only until then (evatr-2006). */
  validUntil?: string;
}

export interface FakeEvatrRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeEvatr {
  url: string;
  requests: FakeEvatrRequest[];
  register(company: FakeEvatrCompany): void;
  failWith(status: string, httpStatus: number): void;
  down(): void;
  slow(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

const norm = (s: string) => s.toUpperCase().replace(/[^0-9A-ZÄÖÜ]/g, '');

export async function startFakeEvatr(): Promise<FakeEvatr> {
  const registry = new Map<string, FakeEvatrCompany>();
  const requests: FakeEvatrRequest[] = [];
  const ctl = new FakeControls<{ status: string; http: number }>();
  const seed = () => registry.set('ATU12345678', { vatId: 'ATU12345678', name: 'Alpenhost GmbH', street: 'Mariahilfer Straße 1', zip: '1060', city: 'Wien' });
  seed();

  const send = (res: http.ServerResponse, httpStatus: number, status: string, extra: Record<string, unknown> = {}) => {
    res.writeHead(httpStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: randomBytes(12).toString('hex'), anfrageZeitpunkt: new Date().toISOString(), status, ...extra }));
  };

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => {
    if (res.destroyed) return;
    if (req.url !== EVATR_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' });
      res.end();
      return;
    }
    if (ctl.isDown) return send(res, 503, 'evatr-0011');
    if (!body || typeof body !== 'object' || Array.isArray(body)) return send(res, 403, 'evatr-0007');
    const b = body as Record<string, unknown>;
    if (Object.keys(b).some((k) => !FIELDS.has(k)) || Object.values(b).some((v) => v !== undefined && v !== null && typeof v !== 'string')) return send(res, 403, 'evatr-0007');
    const own = String(b.anfragendeUstid ?? '');
    const asked = String(b.angefragteUstid ?? '');
    if (!own || !asked) return send(res, 400, 'evatr-0002');
    if (!/^DE\d{9}$/.test(own)) return send(res, 400, 'evatr-0004');
    if (asked.startsWith('DE')) return send(res, 403, 'evatr-0006');
    if (!(VIES_PREFIXES as readonly string[]).includes(asked.slice(0, 2))) return send(res, 400, 'evatr-2003');
    if (!/^[A-Z]{2}[0-9A-Z+*]{2,12}$/.test(asked)) return send(res, 400, 'evatr-0012');
    if (ctl.fault) return send(res, ctl.fault.http, ctl.fault.status);
    const company = registry.get(asked);
    if (!company) return send(res, 404, 'evatr-2001');
    if (company.validUntil) return send(res, 200, 'evatr-2006', { gueltigAb: '2010-01-01', gueltigBis: company.validUntil });
    const name = typeof b.firmenname === 'string' && b.firmenname.trim() ? b.firmenname : undefined;
    const city = typeof b.ort === 'string' && b.ort.trim() ? b.ort : undefined;
    if (Boolean(name) !== Boolean(city)) return send(res, 400, 'evatr-0003');
    if (!name) return send(res, 200, 'evatr-0000');
    const erg = (given: unknown, registered: string | undefined) => {
      if (typeof given !== 'string' || !given.trim()) return 'C';
      if (registered === undefined) return 'D';
      return norm(given) === norm(registered) ? 'A' : 'B';
    };
    return send(res, 200, 'evatr-0000', { ergFirmenname: erg(name, company.name), ergStrasse: erg(b.strasse, company.street), ergPlz: erg(b.plz, company.zip), ergOrt: erg(city, company.city) });
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

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${EVATR_PATH}`,
    requests,
    register: (c) => registry.set(c.vatId.toUpperCase(), c),
    failWith: (status, httpStatus) => {
      ctl.fault = { status, http: httpStatus };
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
