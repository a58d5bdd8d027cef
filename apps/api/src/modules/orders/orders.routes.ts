import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, OrderDetail, OrderList, PageQuery } from '@hp/contract';
import { getOrder, listOrders } from './orders.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError };
const OrderParams = z.object({ id: z.uuid({ error: 'Bestellung nicht gefunden.' }) });

/** The signed-in customer's orders (paid checkouts). Another customer's order is 404. */
export async function orderRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps };
  const base = { config: { access: 'customer' as const } };

  u.get('/api/orders', { ...base, schema: { tags: ['orders'], summary: 'Meine Bestellungen', security: [{ bearer: [] }], querystring: PageQuery, response: { 200: OrderList, ...errors } } },
    async (req) => listOrders(deps, req.user, req.query));

  u.get('/api/orders/:id', { ...base, schema: { tags: ['orders'], summary: 'Bestelldetails', security: [{ bearer: [] }], params: OrderParams, response: { 200: OrderDetail, ...errors } } },
    async (req) => getOrder(deps, req.user, req.params.id));
}
