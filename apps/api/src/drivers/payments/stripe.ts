/**
 * The Stripe Checkout payment driver (../shared/integrations/stripe-checkout.md), on the official SDK.
 * Every request body and its request options are typed with the SDK's own declarations
 * (`Stripe.Checkout.SessionCreateParams`, `Stripe.RefundCreateParams`, `Stripe.RequestOptions` …), so a
 * parameter the installed SDK (and so the API version it pins) does not know fails typechecking here.
 * Every SDK failure (network, timeout, 4xx/5xx, bad key, rate limit) leaves as PaymentProviderError with the
 * German default message and Stripe's own text in `detail`; webhook verification failures leave as
 * PaymentSignatureError.
 */
import type Stripe from 'stripe';
import {
  PaymentProviderError,
  PaymentSignatureError,
  type CheckoutSession,
  type CheckoutSessionParams,
  type PaymentAddress,
  type PaymentEvent,
  type PaymentProvider,
  type Refund,
  type RefundParams,
} from './payments.ts';

export interface StripeProviderConfig {
  /** `sk_live_…` / `sk_test_…` (or a restricted `rk_…` key with Checkout Sessions write access). */
  secretKey: string;
  /** `whsec_…` of the webhook endpoint. */
  webhookSecret: string;
  /** Only for tests against a local fake (default: api.stripe.com over https). */
  apiHost?: string;
  apiPort?: number;
  apiProtocol?: 'http' | 'https';
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Retries of network errors, 409 and 5xx with the same idempotency key (default 2). */
  maxNetworkRetries?: number;
}

const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/** The Checkout Session the portal asks for, in the SDK's own request type. */
export function checkoutSessionCreateParams(params: CheckoutSessionParams): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [{ price_data: { currency: params.currency, unit_amount: params.amountCents, product_data: { name: params.productName } }, quantity: 1 }],
    success_url: params.successUrl,
    cancel_url: params.cancelUrl,
    client_reference_id: params.orderId,
    customer_email: params.customerEmail,
    locale: 'de',
    metadata: { orderId: params.orderId },
    payment_intent_data: { metadata: { orderId: params.orderId } },
    expires_at: Math.floor(params.expiresAt.getTime() / 1000),
    // The e-invoice needs the buyer's address.
    billing_address_collection: 'required',
    // API 2026-09-30.endive (SDK 23) removed `payment_method_types` from this call; the allow-list is its
    // successor (a filter over the methods enabled in the dashboard, where cards always are).
    allowed_payment_method_types: ['card'],
  };
}

/** Reading a session back: the charge is expanded for the card brand and last digits. */
export const CHECKOUT_SESSION_RETRIEVE_PARAMS: Stripe.Checkout.SessionRetrieveParams = { expand: ['payment_intent.latest_charge'] };

/** A refund of the session's payment intent, in the SDK's own request type. */
export function refundCreateParams(paymentIntentId: string, params: RefundParams): Stripe.RefundCreateParams {
  return { payment_intent: paymentIntentId, amount: params.amountCents, metadata: { orderId: params.orderId } };
}

const requestOptions = (idempotencyKey: string): Stripe.RequestOptions => ({ idempotencyKey });

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  // Stripe echoes a rejected key partly masked ("Invalid API Key provided: sk_test_****1234"); drop it whole.
  return out.replace(/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9*]+/g, '$1_$2_[redacted]').replace(/\bwhsec_[A-Za-z0-9*]+/g, 'whsec_[redacted]');
}

function toAddress(address: Stripe.Address | null | undefined): PaymentAddress | null {
  if (!address) return null;
  return {
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    postalCode: address.postal_code ?? null,
    city: address.city ?? null,
    country: address.country ?? null,
  };
}

const SESSION_STATUSES: readonly CheckoutSession['status'][] = ['open', 'complete', 'expired'];
const PAYMENT_STATUSES: readonly CheckoutSession['paymentStatus'][] = ['paid', 'unpaid', 'no_payment_required'];

function isOneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return value !== null && (values as readonly string[]).includes(value);
}

function toCheckoutSession(session: Stripe.Checkout.Session): CheckoutSession {
  const intent = session.payment_intent !== null && typeof session.payment_intent === 'object' ? session.payment_intent : null;
  const charge = intent?.latest_charge !== null && typeof intent?.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  const details = session.customer_details;
  return {
    id: session.id,
    url: session.url ?? null,
    // A status this code does not know is read as open and unpaid: nothing downstream fulfils that.
    status: isOneOf(SESSION_STATUSES, session.status) ? session.status : 'open',
    paymentStatus: isOneOf(PAYMENT_STATUSES, session.payment_status) ? session.payment_status : 'unpaid',
    // Null only for sessions without line items; 0 then never matches an order amount.
    amountTotal: session.amount_total ?? 0,
    currency: session.currency ?? '',
    clientReferenceId: session.client_reference_id ?? null,
    customerDetails: details ? { name: details.name ?? null, email: details.email ?? null, address: toAddress(details.address) } : null,
    card: card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null,
  };
}

export async function createStripeProvider(config: StripeProviderConfig): Promise<PaymentProvider> {
  if (!config.secretKey) throw new Error('createStripeProvider: secretKey is required');
  if (!config.webhookSecret) throw new Error('createStripeProvider: webhookSecret is required');

  // The SDK is loaded only when Stripe is the provider: importing it costs about 0.2 s of CPU, which every
  // start with the simulated provider paid for nothing (issue 26).
  const { default: StripeSdk } = await import('stripe');
  const stripe = new StripeSdk(config.secretKey, {
    maxNetworkRetries: config.maxNetworkRetries ?? 2,
    // The customer is waiting on the other side; Stripe's default of 80 s outlasts any browser.
    timeout: config.timeoutMs ?? 10_000,
    ...(config.apiHost !== undefined ? { host: config.apiHost } : {}),
    ...(config.apiPort !== undefined ? { port: config.apiPort } : {}),
    ...(config.apiProtocol !== undefined ? { protocol: config.apiProtocol } : {}),
  });
  const secrets = [config.secretKey, config.webhookSecret];

  function providerError(error: unknown): unknown {
    // Only the SDK's own errors are translated; a bug of ours stays a bug.
    if (!(error instanceof StripeSdk.errors.StripeError)) return error;
    const parts = [error.type, error.statusCode !== undefined ? `HTTP ${error.statusCode}` : null, error.code ?? null, error.message, error.requestId ? `(${error.requestId})` : null];
    return new PaymentProviderError(undefined, redact(parts.filter(Boolean).join(' '), secrets));
  }

  async function retrieveCheckoutSession(id: string): Promise<CheckoutSession> {
    try {
      return toCheckoutSession(await stripe.checkout.sessions.retrieve(id, CHECKOUT_SESSION_RETRIEVE_PARAMS));
    } catch (error) {
      throw providerError(error);
    }
  }

  return {
    kind: 'stripe',

    async createCheckoutSession(params: CheckoutSessionParams) {
      if (!params.successUrl.includes(SESSION_ID_PLACEHOLDER)) throw new Error(`successUrl must contain ${SESSION_ID_PLACEHOLDER}`);
      try {
        const session = await stripe.checkout.sessions.create(checkoutSessionCreateParams(params), requestOptions(params.idempotencyKey));
        if (!session.url) throw new PaymentProviderError(undefined, `Checkout session ${session.id} came back without a url (status ${session.status})`);
        return { id: session.id, url: session.url };
      } catch (error) {
        throw providerError(error);
      }
    },

    retrieveCheckoutSession,

    async expireCheckoutSession(id: string) {
      try {
        const expireParams: Stripe.Checkout.SessionExpireParams = {};
        await stripe.checkout.sessions.expire(id, expireParams);
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open with a 400 invalid_request_error
        // ("Only Checkout Sessions with a status in ["open"] can be expired…"). The wording is no contract,
        // so ask the session itself; an unknown id (404) or a still open session stays an error.
        if (error instanceof StripeSdk.errors.StripeInvalidRequestError && error.statusCode === 400) {
          const session = await retrieveCheckoutSession(id);
          if (session.status !== 'open') return;
        }
        throw providerError(error);
      }
    },

    async refundPayment(params: RefundParams): Promise<Refund> {
      let refund: Stripe.Refund;
      try {
        const session = await stripe.checkout.sessions.retrieve(params.sessionId);
        const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
        if (session.payment_status !== 'paid' || !intent) throw new PaymentProviderError(undefined, `checkout session ${params.sessionId} has no paid payment to refund`);
        refund = await stripe.refunds.create(refundCreateParams(intent, params), requestOptions(params.idempotencyKey));
      } catch (error) {
        throw error instanceof PaymentProviderError ? error : providerError(error);
      }
      if (refund.status === 'failed' || refund.status === 'canceled') throw new PaymentProviderError(undefined, `refund ${refund.id} ${refund.status}${refund.failure_reason ? `: ${refund.failure_reason}` : ''}`);
      return { id: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
    },

    constructEvent(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
      if (!signatureHeader) throw new PaymentSignatureError('Stripe-Signature header missing');
      let event: Stripe.Event;
      try {
        // Default tolerance 300 s. It accepts a replayed event and future timestamps: callers store event.id uniquely.
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, config.webhookSecret);
      } catch (error) {
        const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '').trim() : '';
        throw new PaymentSignatureError(redact(`Stripe-Signature rejected: ${reason}`, secrets));
      }
      const object = (event as { data?: { object?: { object?: unknown; id?: unknown } } }).data?.object;
      return {
        id: event.id,
        type: event.type,
        created: event.created,
        sessionId: object?.object === 'checkout.session' && typeof object.id === 'string' ? object.id : null,
      };
    },
  };
}
