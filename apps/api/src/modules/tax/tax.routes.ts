import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiError, TaxQuarterReports, TaxReportQuery, TaxThreshold } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { ossCsv, ossRows, taxQuarterReports, taxThreshold, zmCsv, zmRows } from './tax-reports.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError };
const security = [{ bearer: [] }];
const owner = { access: 'owner' as const };
const tags = ['statistics'];

const sendCsv = (reply: FastifyReply, name: string, csv: string) => reply
  .header('content-type', 'text/csv; charset=utf-8')
  .header('content-disposition', `attachment; filename="${name}"`)
  .header('cache-control', 'private, no-store')
  .header('x-content-type-options', 'nosniff')
  .send(csv);

/** The owner's tax reports under Statistiken (issue 24); employees and customers get 403 like the statistics. */
export async function taxReportRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/admin/statistics/tax/threshold', { config: owner, schema: { tags, summary: 'Lieferschwelle: Verbraucherumsätze in anderen EU-Staaten (Vorjahr, laufendes Jahr) gegen 10.000 € (Inhaber)', security, response: { 200: TaxThreshold, ...errors } } },
    async () => taxThreshold(deps));

  u.get('/api/admin/statistics/tax/reports', { config: owner, schema: { tags, summary: 'Zusammenfassende Meldung und OSS-Meldung eines Quartals (Inhaber)', security, querystring: TaxReportQuery, response: { 200: TaxQuarterReports, ...errors } } },
    async (req) => taxQuarterReports(deps, req.query.quarter));

  u.get('/api/admin/statistics/tax/zm.csv', { config: owner, schema: { tags, summary: 'Zusammenfassende Meldung (§18a UStG) eines Quartals als CSV', security, querystring: TaxReportQuery, response: { 200: z.string(), ...errors } } },
    async (req, reply) => sendCsv(reply, `zm-${req.query.quarter}.csv`, zmCsv(await zmRows(deps, req.query.quarter))));

  u.get('/api/admin/statistics/tax/oss.csv', { config: owner, schema: { tags, summary: 'OSS-Meldung (§18j UStG) eines Quartals als CSV', security, querystring: TaxReportQuery, response: { 200: z.string(), ...errors } } },
    async (req, reply) => sendCsv(reply, `oss-${req.query.quarter}.csv`, ossCsv(await ossRows(deps, req.query.quarter))));
}
