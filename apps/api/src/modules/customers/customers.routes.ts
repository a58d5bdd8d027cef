import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, CustomerExportQuery, CustomerListQuery, CustomerPage } from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { exportCustomersCsv, findCustomers } from './customers.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError };
const security = [{ bearer: [] }];
const staff = { access: 'staff' as const };

/** Customer management for employee and owner (customers get 403 from the API, /notfound in the UI). */
export async function customerRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/staff/customers', { config: staff, schema: { tags: ['customers'], summary: 'Kunden (Suche: Name, E-Mail, Kundennummer; sortierbar, seitenweise)', security, querystring: CustomerListQuery, response: { 200: CustomerPage, ...errors } } },
    async (req) => findCustomers(deps, req.query));

  u.get('/api/staff/customers/export.csv', { config: staff, schema: { tags: ['customers'], summary: 'CSV-Export der aktuellen Suche (Formeln entschärft)', security, querystring: CustomerExportQuery, response: { 200: z.string(), ...errors } } },
    async (req, reply) => {
      const csv = await exportCustomersCsv(deps, req.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="kunden-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(csv);
    });
}
