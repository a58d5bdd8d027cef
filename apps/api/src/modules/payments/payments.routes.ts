import type { FastifyInstance } from 'fastify';
import { receiveWebhook } from './payments.service.ts';
import { simulatedCheckoutRoutes } from './simulated-checkout.routes.ts';
import type { SimulatedPayments } from '../../drivers/payments/simulated.ts';

/**
 * The payment provider's webhook (Stripe, or the simulated provider's own deliveries) and, in the
 * embedded default, the simulated hosted payment page.
 */
export async function paymentRoutes(app: FastifyInstance) {
  const deps = { ...app.deps, log: app.log };

  // The signature covers the exact bytes: this plugin keeps JSON bodies raw.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
    scope.post('/api/payments/webhook', { config: { access: 'public' }, schema: { tags: ['payments'], summary: 'Webhook des Zahlungsanbieters (Stripe-Signatur)' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : '');
      const header = req.headers['stripe-signature'];
      const result = await receiveWebhook(deps, raw, Array.isArray(header) ? header[0] : header);
      return reply.code(200).send({ received: true, result });
    });
  });

  if (app.deps.payments.kind === 'simulated') {
    await app.register(simulatedCheckoutRoutes, { payments: app.deps.payments as SimulatedPayments, merchant: app.deps.env.company.name });
  }
}
