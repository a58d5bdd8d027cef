import type { Db } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { hmac, type Secrets } from '../../lib/secrets.ts';
import type { PaymentProvider } from './payments.ts';
import { createSimulatedPayments } from './simulated.ts';
import { createStripeProvider } from './stripe.ts';

/** The one place where the payment provider is chosen (PAYMENTS=stripe, else the simulated page). */
export async function createPaymentProvider(env: Env, db: Db, secrets: Secrets): Promise<PaymentProvider> {
  if (env.payments.provider === 'stripe') {
    const { stripeSecretKey, stripeWebhookSecret, stripeApiBase } = env.payments;
    if (!stripeSecretKey || !stripeWebhookSecret) throw new Error('PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    const base = stripeApiBase ? new URL(stripeApiBase) : undefined;
    return createStripeProvider({
      secretKey: stripeSecretKey,
      webhookSecret: stripeWebhookSecret,
      ...(base ? { apiHost: base.hostname, apiPort: Number(base.port) || (base.protocol === 'https:' ? 443 : 80), apiProtocol: base.protocol === 'https:' ? 'https' as const : 'http' as const } : {}),
    });
  }
  // The simulated provider signs its events with a per-installation secret, like a whsec_ key.
  return createSimulatedPayments(db, { publicUrl: env.publicUrl, webhookSecret: `whsec_${hmac(secrets.hmacKey, 'simulated-payments-webhook')}` });
}
