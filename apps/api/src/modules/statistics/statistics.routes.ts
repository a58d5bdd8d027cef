import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, Statistics, StatisticsExportQuery, StatisticsQuery } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { exportStatisticsCsv, getStatistics } from './statistics.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError };
const security = [{ bearer: [] }];
const owner = { access: 'owner' as const };

/** Platform statistics for the owner (employees and customers get 403 from the API, /notfound in the UI). */
export async function statisticsRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/admin/statistics', { config: owner, schema: { tags: ['statistics'], summary: 'Statistiken: Kapazität, Umsatz, MRR, offene Posten, Support (Inhaber)', security, querystring: StatisticsQuery, response: { 200: Statistics, ...errors } } },
    async (req) => getStatistics(deps, req.query));

  u.get('/api/admin/statistics/export.csv', { config: owner, schema: { tags: ['statistics'], summary: 'Eine Tabelle der Statistiken als CSV (Formeln entschärft)', security, querystring: StatisticsExportQuery, response: { 200: z.string(), ...errors } } },
    async (req, reply) => {
      const { table, ...range } = req.query;
      const csv = await exportStatisticsCsv(deps, table, range);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statistik-${table}-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(csv);
    });
}
