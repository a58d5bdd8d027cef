/**
 * The port every payment provider fills: `simulated` (embedded default: a hosted card page served by the
 * product) and `stripe` (Stripe Checkout). Shapes follow Stripe Checkout
 * (../shared/integrations/stripe-checkout.md) so that one webhook and fulfilment path serves both.
 */

export interface CheckoutSessionParams {
  orderId: string;
  /** Gross, in cents. */
  amountCents: number;
  currency: 'eur';
  /** Line item name shown on the payment page, e.g. "Root Server (KVM) – 4 Kerne, 8 GB RAM, 100 GB". */
  productName: string;
  customerEmail: string;
  /** Must contain the literal `{CHECKOUT_SESSION_ID}`; the provider fills it in. */
  successUrl: string;
  cancelUrl: string;
  /** 30 min … 24 h from now by the provider's clock (the shop asks for 31 min). */
  expiresAt: Date;
  /** e.g. `order-<id>-checkout-<attempt>`: a retried create returns the same session. */
  idempotencyKey: string;
}

export interface PaymentAddress {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2 */
  country: string | null;
}

export interface CheckoutSession {
  id: string;
  /** Hosted payment page (null once complete or expired). */
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  amountTotal: number;
  currency: string;
  /** Our order id. */
  clientReferenceId: string | null;
  customerDetails: { name: string | null; email: string | null; address: PaymentAddress | null } | null;
  /** The card of the successful charge (needed for the e-invoice). */
  card: { brand: string; last4: string } | null;
  /** Set by the simulated provider when the card was declined (Stripe keeps the session open instead). */
  declined?: boolean;
}

export type PaymentEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

export interface PaymentEvent {
  id: string;
  type: PaymentEventType | string;
  /** Unix seconds */
  created: number;
  /** data.object.id: the checkout session. */
  sessionId: string | null;
}

export interface RefundParams {
  /** The checkout session that took the payment. */
  sessionId: string;
  /** Cents to pay back (the whole payment for a failed order). */
  amountCents: number;
  /** Our order id (metadata on the provider's side). */
  orderId: string;
  /** e.g. `order-<id>-refund`: a retried refund answers with the first one instead of paying out twice. */
  idempotencyKey: string;
}

export interface Refund {
  id: string;
  /** 'pending': accepted, the card network still has to confirm (Stripe's pending/requires_action). */
  status: 'succeeded' | 'pending';
}

export interface PaymentProvider {
  readonly kind: 'simulated' | 'stripe';
  createCheckoutSession(params: CheckoutSessionParams): Promise<{ id: string; url: string }>;
  /** Always asks the provider; the caller trusts nothing else. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSession>;
  /** Ends an open session early (customer cancelled); a no-op for sessions already complete or expired. */
  expireCheckoutSession(id: string): Promise<void>;
  /**
   * Verifies `Stripe-Signature` over the raw body (HMAC-SHA256, 300 s tolerance) and parses the event.
   * Throws PaymentSignatureError on a missing/wrong signature, a changed body or a stale timestamp.
   */
  constructEvent(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
  /**
   * Pays a completed session's payment back to the card (decision 023: paid orders that cannot be
   * delivered). Idempotent by `idempotencyKey`; a session without a paid payment, a failed refund or
   * an amount above what is left to refund throw PaymentProviderError.
   */
  refundPayment(params: RefundParams): Promise<Refund>;
}

export class PaymentSignatureError extends Error {}

/** Provider failures (network, 5xx, bad key) surface as this, with a German message for the user. */
export class PaymentProviderError extends Error {
  constructor(message = 'Der Zahlungsanbieter ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.', readonly detail?: string) {
    super(message);
  }
}
