/**
 * A local fake of the Stripe API for tests, written from ../shared/integrations/stripe-checkout.md: the three
 * Checkout endpoints and the refund endpoint the stripe driver calls, with Stripe's form encoding, bearer auth, idempotency keys,
 * `expand`, error envelopes and status codes, plus test controls (pay, expire, fault injection, signed
 * webhook events). Plain node:http on 127.0.0.1 with a random port.
 *
 * ```ts
 * const fake = await startFakeStripe();
 * const payments = await createStripeProvider({ ...fake.driverConfig(), maxNetworkRetries: 0 });
 * const { id } = await payments.createCheckoutSession(params);
 * fake.completeSession(id, { card: { brand: 'visa', last4: '4242' }, name: 'Erika Mustermann', address: { … } });
 * const { payload, header } = fake.signedEvent('checkout.session.completed', id);
 * await app.inject({ method: 'POST', url: '/api/payments/webhook', payload, headers: { 'stripe-signature': header, 'content-type': 'application/json' } });
 * await fake.close();
 * ```
 *
 * Modelled: `POST /v1/checkout/sessions` (mode `payment` with `price_data` line items),
 * `GET /v1/checkout/sessions/:id` (expand `payment_intent`, `payment_intent.latest_charge`, `line_items`),
 * `POST /v1/checkout/sessions/:id/expire`, `POST /v1/refunds` (by payment intent or charge, whole or partial).
 * Sessions expire by themselves once `expires_at` has passed.
 * Anything else answers 404 like an unknown Stripe URL.
 *
 * Derived from the installed SDK's own request types: the parameter names the fake accepts
 * (`sdkParamNames`) must equal the keys of `Stripe.Checkout.SessionCreateParams`,
 * `…SessionCreateParams.PaymentIntentData` and `Stripe.RefundCreateParams`, checked by the compiler in both
 * directions, and the parsed bodies are read through `FormOf<…>` of those types, so reading a parameter
 * the SDK does not declare fails typechecking too. An SDK upgrade that adds or removes a parameter breaks
 * the build here until the fake follows.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { PaymentAddress } from './payments.ts';

// ---------------------------------------------------------------------------------------------------------
// Form encoding (what the SDK sends: `line_items[0][price_data][unit_amount]=1999`, `expand[0]=…`)
// ---------------------------------------------------------------------------------------------------------

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export interface FormParams {
  [key: string]: FormValue;
}

/** A parsed form body read as the SDK request type `T`: only the parameter names `T` declares can be read. */
export type FormOf<T> = { [K in keyof T & string]?: FormValue };

/**
 * The parameter names of an SDK request type `T`, checked by the compiler in both directions: a name `T`
 * does not declare is an error, and so is a name `T` declares that the list lacks.
 */
export function sdkParamNames<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    names: K & ([Exclude<keyof T & string, K[number]>] extends [never] ? unknown : { missingFromList: Exclude<keyof T & string, K[number]> }),
  ): ReadonlySet<string> => new Set<string>(names);
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: { type?: string; code?: string; param?: string } = {},
  ) {
    super(message);
  }
}

type Draft = { [key: string]: Draft | string };

/** Parses `application/x-www-form-urlencoded` with bracket nesting into objects and arrays (`a[0]`, `a[]`). */
export function parseStripeForm(encoded: string): FormParams {
  const root: Draft = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [key];
    let node = root;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i] === '' ? String(Object.keys(node).length) : path[i]!;
      if (i === path.length - 1) {
        if (typeof node[segment] === 'object') throw new StripeApiError(400, `Invalid value for ${key}: expected an object.`, { param: key });
        node[segment] = value;
      } else {
        const next = node[segment] ?? {};
        if (typeof next === 'string') throw new StripeApiError(400, `Invalid object for ${key}.`, { param: key });
        node[segment] = next;
        node = next;
      }
    }
  }
  const finish = (draft: Draft | string): FormValue => {
    if (typeof draft === 'string') return draft;
    const keys = Object.keys(draft);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => finish(draft[k]!));
    }
    return Object.fromEntries(keys.map((k) => [k, finish(draft[k]!)]));
  };
  return finish(root) as FormParams;
}

// ---------------------------------------------------------------------------------------------------------
// Stripe-shaped objects (the fields the fake models; real objects carry many more)
// ---------------------------------------------------------------------------------------------------------

export interface FakeAddress {
  city: string | null;
  country: string | null;
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  state: string | null;
}

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  currency: string;
  created: number;
  captured: boolean;
  paid: boolean;
  status: 'succeeded';
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string;
  /** Sum of the refunds so far; `refunded` once it reaches the amount. */
  amount_refunded: number;
  refunded: boolean;
  billing_details: { name: string | null; email: string | null; phone: string | null; address: FakeAddress | null };
  payment_method_details: {
    type: 'card';
    card: { brand: string; last4: string; exp_month: number; exp_year: number; country: string | null; funding: string };
  };
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  created: number;
  metadata: Record<string, string>;
  reason: string | null;
  status: 'succeeded';
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  created: number;
  status: 'succeeded';
  livemode: false;
  metadata: Record<string, string>;
  payment_method_types: string[];
  latest_charge: string | FakeCharge | null;
}

export interface FakeLineItem {
  id: string;
  object: 'item';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  description: string;
  quantity: number;
  price: { id: string; object: 'price'; currency: string; unit_amount: number; product: string };
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  billing_address_collection: 'auto' | 'required' | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_details: {
    name: string | null;
    email: string | null;
    phone: string | null;
    address: FakeAddress | null;
    tax_exempt: 'none';
    tax_ids: [];
  } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  locale: string | null;
  metadata: Record<string, string>;
  mode: 'payment';
  allowed_payment_method_types: string[] | null;
  /** Stripe creates the PaymentIntent only when the customer pays, so it is null while the session is open. */
  payment_intent: string | FakePaymentIntent | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  ui_mode: 'hosted_page';
  /** Only while the session is open. */
  url: string | null;
  line_items?: { object: 'list'; data: FakeLineItem[]; has_more: false; url: string };
}

export type FakeEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

/** One request as the fake received it (parsed), and what it answered. */
export interface FakeStripeRequest {
  method: string;
  /** Without the query string. */
  path: string;
  query: FormParams;
  /** Parsed form body (POST). */
  body: FormParams;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
  idempotencyKey: string | null;
  /** HTTP status sent back; null while unanswered (an injected 'timeout'). */
  status: number | null;
  /** True when the answer was replayed from an earlier request with the same Idempotency-Key. */
  isIdempotentReplay: boolean;
}

/** An injected failure: an HTTP status (500, 502, 503, 429 …), no answer at all, or a dropped connection. */
export type FakeFault = number | 'timeout' | 'reset';

export interface FakeStripeOptions {
  /** The only secret key accepted. Default: any `sk_test_…` key (and `driverConfig()` uses `sk_test_fake`). */
  apiKey?: string;
  /** Secret for `signEvent`/`signedEvent`. Default `whsec_fake_stripe`. */
  webhookSecret?: string;
  /** Prefix of the hosted payment page URL; the session id is appended. Default `https://checkout.stripe.com/c/pay/`. */
  checkoutUrlBase?: string;
  /** Clock in ms (for sessions that expire by themselves and `created`). Default `Date.now`. */
  now?: () => number;
}

export interface CompleteSessionOptions {
  card?: { brand: string; last4: string };
  name?: string | null;
  /** Defaults to the `customer_email` the session was created with. */
  email?: string | null;
  address?: Partial<PaymentAddress> & { state?: string | null };
  /**
   * `paid` (default) for cards. `unpaid` models a delayed payment method: the session is complete, but the
   * money is not there yet (then `checkout.session.async_payment_succeeded|failed` follows).
   */
  paymentStatus?: 'paid' | 'unpaid';
}

interface StoredSession {
  session: FakeCheckoutSession;
  lineItems: FakeLineItem[];
  paymentIntentMetadata: Record<string, string>;
  paymentIntent: FakePaymentIntent | null;
  charge: FakeCharge | null;
}

interface IdempotentResult {
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
}

// Stripe's own list (SessionCreateParams of the installed SDK, 23.1.0 / API 2026-10-28.endive, where
// `payment_method_types` is gone), so that a typo or a removed parameter in the driver fails here as it
// would against Stripe. The compiler holds it equal to the SDK's type.
const CREATE_PARAMS = sdkParamNames<Stripe.Checkout.SessionCreateParams>()([
  'adaptive_pricing', 'after_expiration', 'allow_promotion_codes', 'allowed_payment_method_types', 'automatic_tax',
  'billing_address_collection', 'branding_settings', 'cancel_url', 'client_reference_id', 'consent_collection', 'currency',
  'custom_fields', 'custom_text', 'customer', 'customer_account', 'customer_creation', 'customer_email', 'customer_update',
  'discounts', 'excluded_payment_method_types', 'expand', 'expires_at', 'integration_identifier', 'invoice_creation',
  'line_items', 'locale', 'managed_payments', 'metadata', 'mode', 'name_collection', 'optional_items', 'origin_context',
  'payment_intent_data', 'payment_method_collection', 'payment_method_configuration', 'payment_method_data',
  'payment_method_options', 'permissions', 'phone_number_collection', 'redirect_on_completion', 'return_url',
  'saved_payment_method_options', 'setup_intent_data', 'shipping_address_collection', 'shipping_options', 'submit_type',
  'subscription_data', 'success_url', 'tax_id_collection', 'ui_mode', 'wallet_options',
]);
const PAYMENT_INTENT_DATA_PARAMS = sdkParamNames<Stripe.Checkout.SessionCreateParams.PaymentIntentData>()([
  'application_fee_amount', 'capture_method', 'description', 'metadata', 'on_behalf_of', 'receipt_email', 'setup_future_usage',
  'shipping', 'statement_descriptor', 'statement_descriptor_suffix', 'transfer_data', 'transfer_group',
]);
const REFUND_PARAMS = sdkParamNames<Stripe.RefundCreateParams>()([
  'amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin', 'payment_intent', 'reason',
  'refund_application_fee', 'reverse_transfer',
]);
/** The refund parameters the fake models; the others Stripe knows are refused as not modelled (never ignored). */
const REFUND_MODELLED = new Set(['payment_intent', 'charge', 'amount', 'reason', 'metadata'] as const satisfies readonly (keyof Stripe.RefundCreateParams)[]);
const EXPANDABLE = new Set(['payment_intent', 'payment_intent.latest_charge', 'line_items']);
const MIN_EXPIRY_S = 30 * 60;
const MAX_EXPIRY_S = 24 * 60 * 60;

function randomId(prefix: string, length = 24): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

function maskKey(key: string): string {
  // Stripe shows the prefix and the last four characters of a rejected key.
  const prefix = /^[a-z]{2}_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

function asString(value: FormValue | undefined, param: string, { required = false, max = 5000 } = {}): string | null {
  if (value === undefined || value === '') {
    if (required) throw new StripeApiError(400, `Missing required param: ${param}.`, { code: 'parameter_missing', param });
    return null;
  }
  if (typeof value !== 'string') throw new StripeApiError(400, `Invalid string: ${param} must be a string.`, { param });
  if (value.length > max) throw new StripeApiError(400, `Invalid string: ${value.slice(0, 20)}...; must be at most ${max} characters`, { param });
  return value;
}

function asInteger(value: FormValue | undefined, param: string, { required = false, min = 0 } = {}): number | null {
  if (value === undefined || value === '') {
    if (required) throw new StripeApiError(400, `Missing required param: ${param}.`, { code: 'parameter_missing', param });
    return null;
  }
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new StripeApiError(400, `Invalid integer: ${String(value)}`, { param });
  const n = Number(value);
  if (n < min) throw new StripeApiError(400, `This value must be greater than or equal to ${min}.`, { param });
  return n;
}

/** A nested form object, read as the SDK request type `T` it stands for. */
function asObject<T = Record<string, unknown>>(value: FormValue | undefined, param: string): FormOf<T> | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new StripeApiError(400, `Invalid object`, { param });
  return value as FormOf<T>;
}

function asArray(value: FormValue | undefined, param: string): FormValue[] | null {
  if (value === undefined || value === '') return null;
  if (!Array.isArray(value)) throw new StripeApiError(400, `Invalid array`, { param });
  return value;
}

function asMetadata(value: FormValue | undefined, param: string): Record<string, string> {
  const object = asObject(value, param) ?? {};
  const entries = Object.entries(object);
  if (entries.length > 50) throw new StripeApiError(400, 'Invalid metadata: metadata can have up to 50 keys.', { param });
  const metadata: Record<string, string> = {};
  for (const [key, v] of entries) {
    if (key.length > 40) throw new StripeApiError(400, `Invalid metadata: keys can be up to 40 characters long.`, { param: `${param}[${key}]` });
    const s = asString(v, `${param}[${key}]`, { max: 500 });
    if (s !== null) metadata[key] = s;
  }
  return metadata;
}

function rejectUnknown(object: object, allowed: ReadonlySet<string>, prefix: string | null): void {
  for (const key of Object.keys(object)) {
    if (!allowed.has(key)) {
      const param = prefix ? `${prefix}[${key}]` : key;
      throw new StripeApiError(400, `Received unknown parameter: ${param}`, { param });
    }
  }
}

function checkUrl(value: string | null, param: string): void {
  if (value === null) return;
  try {
    new URL(value);
  } catch {
    throw new StripeApiError(400, 'Not a valid URL', { code: 'url_invalid', param });
  }
}

function toFakeAddress(address: CompleteSessionOptions['address']): FakeAddress | null {
  if (!address) return null;
  return {
    city: address.city ?? null,
    country: address.country ?? null,
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    postal_code: address.postalCode ?? null,
    state: address.state ?? null,
  };
}

export class FakeStripe {
  /** Every request, oldest first. */
  readonly requests: FakeStripeRequest[] = [];
  readonly webhookSecret: string;
  private readonly apiKey: string | undefined;
  private readonly checkoutUrlBase: string;
  private readonly now: () => number;
  private readonly sessions = new Map<string, StoredSession>();
  private readonly idempotency = new Map<string, IdempotentResult>();
  private readonly refunds: FakeRefund[] = [];
  private readonly faults: FakeFault[] = [];
  private server: http.Server | null = null;
  private port = 0;

  constructor(options: FakeStripeOptions = {}) {
    this.apiKey = options.apiKey;
    this.webhookSecret = options.webhookSecret ?? 'whsec_fake_stripe';
    this.checkoutUrlBase = options.checkoutUrlBase ?? 'https://checkout.stripe.com/c/pay/';
    this.now = options.now ?? Date.now;
  }

  /** Listens on 127.0.0.1 (port 0: a free one). */
  async start(port = 0): Promise<{ port: number; host: string }> {
    if (this.server) throw new Error('FakeStripe already started');
    const server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return { port: this.port, host: '127.0.0.1' };
  }

  /** Stops listening and drops every connection, including requests held by a 'timeout' fault. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // The SDK keeps connections alive; without this close() would wait for them to idle out.
    server.closeAllConnections();
    await closed;
  }

  /** Options for `createStripeProvider` pointing at this fake (after `start()`). */
  driverConfig(): { secretKey: string; webhookSecret: string; apiHost: string; apiPort: number; apiProtocol: 'http' } {
    if (!this.server) throw new Error('FakeStripe not started');
    return { secretKey: this.apiKey ?? 'sk_test_fake', webhookSecret: this.webhookSecret, apiHost: '127.0.0.1', apiPort: this.port, apiProtocol: 'http' };
  }

  /** Forgets sessions, requests, idempotency keys and pending faults. */
  reset(): void {
    this.sessions.clear();
    this.idempotency.clear();
    this.refunds.length = 0;
    this.faults.length = 0;
    this.requests.length = 0;
  }

  /**
   * The next `count` requests fail: with that HTTP status (Stripe's error envelope, `api_error` for 5xx,
   * `rate_limit` for 429), without any answer ('timeout': the client's timeout fires), or with a dropped
   * connection ('reset'; note the SDK retries a reset once even with `maxNetworkRetries: 0`).
   * The failure happens before the API runs: nothing is created and no idempotent result is stored.
   */
  failNext(fault: FakeFault, count = 1): void {
    for (let i = 0; i < count; i++) this.faults.push(fault);
  }

  /** A copy of the session as `GET /v1/checkout/sessions/:id` would return it (unexpanded). */
  getSession(id: string): FakeCheckoutSession {
    return structuredClone(this.stored(id).session);
  }

  /** Refunds made through `POST /v1/refunds`, oldest first. */
  listRefunds(): FakeRefund[] {
    return structuredClone(this.refunds);
  }

  /** All sessions, oldest first. */
  listSessions(): FakeCheckoutSession[] {
    return [...this.sessions.keys()].map((id) => this.getSession(id));
  }

  /** The success URL with `{CHECKOUT_SESSION_ID}` filled in: where Stripe sends the browser after paying. */
  successUrlFor(id: string): string {
    const { session } = this.stored(id);
    if (!session.success_url) throw new Error(`session ${id} has no success_url`);
    return session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id);
  }

  /** The customer pays on the hosted page: the session becomes complete (and paid, with a card charge). */
  completeSession(id: string, options: CompleteSessionOptions = {}): FakeCheckoutSession {
    const stored = this.stored(id);
    const { session } = stored;
    if (session.status !== 'open') throw new Error(`session ${id} is ${session.status}, only an open session can be paid`);
    const created = Math.floor(this.now() / 1000);
    const address = toFakeAddress(options.address);
    const name = options.name ?? null;
    const email = options.email === undefined ? session.customer_email : options.email;
    const paymentStatus = options.paymentStatus ?? 'paid';
    const intentId = randomId('pi_');
    if (paymentStatus === 'paid') {
      const card = options.card ?? { brand: 'visa', last4: '4242' };
      stored.charge = {
        id: randomId('ch_'),
        object: 'charge',
        amount: session.amount_total,
        amount_captured: session.amount_total,
        currency: session.currency,
        created,
        captured: true,
        paid: true,
        status: 'succeeded',
        livemode: false,
        metadata: {},
        payment_intent: intentId,
        amount_refunded: 0,
        refunded: false,
        billing_details: { name, email, phone: null, address },
        payment_method_details: { type: 'card', card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date(this.now()).getUTCFullYear() + 3, country: address?.country ?? null, funding: 'credit' } },
      };
    }
    stored.paymentIntent = {
      id: intentId,
      object: 'payment_intent',
      amount: session.amount_total,
      amount_received: paymentStatus === 'paid' ? session.amount_total : 0,
      currency: session.currency,
      created,
      status: 'succeeded',
      livemode: false,
      metadata: { ...stored.paymentIntentMetadata },
      payment_method_types: [...session.payment_method_types],
      latest_charge: stored.charge?.id ?? null,
    };
    session.status = 'complete';
    session.payment_status = paymentStatus;
    session.payment_intent = intentId;
    session.url = null;
    session.customer_details = { name, email, phone: null, address, tax_exempt: 'none', tax_ids: [] };
    return this.getSession(id);
  }

  /** The session runs out (or is expired in the dashboard): status expired, no URL. */
  expireSession(id: string): FakeCheckoutSession {
    const { session } = this.stored(id);
    if (session.status !== 'open') throw new Error(`session ${id} is ${session.status}, only an open session can expire`);
    session.status = 'expired';
    session.url = null;
    return this.getSession(id);
  }

  /**
   * A webhook body as Stripe sends it: `{ id: 'evt_…', object: 'event', type, created, data: { object: <session> } }`
   * with a snapshot of the session as it is now. Returns the exact string to sign and send.
   */
  eventFor(type: FakeEventType | string, sessionId: string, options: { id?: string; created?: number } = {}): string {
    const event = {
      id: options.id ?? randomId('evt_'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: options.created ?? Math.floor(this.now() / 1000),
      data: { object: this.getSession(sessionId) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    return JSON.stringify(event, null, 2);
  }

  /** `Stripe-Signature` header for `payload`, made by the SDK's own test helper. */
  signEvent(payload: string, options: { timestamp?: number; secret?: string } = {}): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
    });
  }

  /** `eventFor` + `signEvent`: the body and the `Stripe-Signature` header of one webhook delivery. */
  signedEvent(type: FakeEventType | string, sessionId: string, options: { id?: string; created?: number; timestamp?: number; secret?: string } = {}): { payload: string; header: string } {
    const payload = this.eventFor(type, sessionId, options);
    return { payload, header: this.signEvent(payload, options) };
  }

  // -------------------------------------------------------------------------------------------------------
  // HTTP
  // -------------------------------------------------------------------------------------------------------

  private stored(id: string): StoredSession {
    const stored = this.sessions.get(id);
    if (!stored) throw new Error(`no such session in the fake: ${id}`);
    this.expireIfDue(stored);
    return stored;
  }

  private expireIfDue(stored: StoredSession): void {
    if (stored.session.status === 'open' && this.now() / 1000 >= stored.session.expires_at) {
      stored.session.status = 'expired';
      stored.session.url = null;
    }
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const key = req.headers['idempotency-key'];
      const entry: FakeStripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: {},
        body: {},
        rawBody,
        headers: req.headers,
        idempotencyKey: typeof key === 'string' ? key : null,
        status: null,
        isIdempotentReplay: false,
      };
      this.requests.push(entry);
      const requestId = randomId('req_', 14);
      const send = (status: number, body: string, extraHeaders: Record<string, string> = {}) => {
        entry.status = status;
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, 'stripe-version': Stripe.API_VERSION, ...extraHeaders });
        res.end(body);
      };
      const sendError = (error: StripeApiError) => {
        send(error.status, JSON.stringify({ error: { type: error.fields.type ?? 'invalid_request_error', message: error.message, ...(error.fields.code ? { code: error.fields.code } : {}), ...(error.fields.param ? { param: error.fields.param } : {}), request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } }, null, 2));
      };

      const fault = this.faults.shift();
      if (fault === 'timeout') return; // never answered; close() or the client's timeout ends it
      if (fault === 'reset') {
        req.socket.destroy();
        return;
      }
      if (typeof fault === 'number') {
        if (fault === 429) return sendError(new StripeApiError(429, 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.', { code: 'rate_limit' }));
        return sendError(new StripeApiError(fault, 'An unknown error occurred', { type: fault >= 500 ? 'api_error' : 'invalid_request_error' }));
      }

      try {
        entry.query = parseStripeForm(url.search.slice(1));
        entry.body = parseStripeForm(rawBody);
        this.authenticate(req.headers.authorization);

        if (entry.method === 'POST' && entry.idempotencyKey) {
          // Stripe replays the first result for a key; the same key with other parameters is refused.
          const fingerprint = JSON.stringify([entry.method, entry.path, entry.body]);
          const previous = this.idempotency.get(entry.idempotencyKey);
          if (previous) {
            if (previous.fingerprint !== fingerprint) {
              throw new StripeApiError(400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${entry.idempotencyKey}' if you meant to execute a different request.`, { type: 'idempotency_error' });
            }
            entry.isIdempotentReplay = true;
            return send(previous.status, previous.body, { 'idempotent-replayed': 'true', 'original-request': previous.requestId });
          }
          const { status, body } = this.route(entry);
          this.idempotency.set(entry.idempotencyKey, { fingerprint, status, body, requestId });
          return send(status, body);
        }
        const { status, body } = this.route(entry);
        return send(status, body);
      } catch (error) {
        if (error instanceof StripeApiError) return sendError(error);
        return sendError(new StripeApiError(500, `fake-stripe: ${error instanceof Error ? error.message : String(error)}`, { type: 'api_error' }));
      }
    });
  }

  private authenticate(authorization: string | undefined): void {
    if (!authorization) {
      throw new StripeApiError(401, "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
    }
    const key = /^Bearer (\S+)$/.exec(authorization)?.[1] ?? '';
    const isValid = this.apiKey !== undefined ? key === this.apiKey : /^sk_test_[A-Za-z0-9_]+$/.test(key);
    if (!isValid) throw new StripeApiError(401, `Invalid API Key provided: ${maskKey(key)}`);
  }

  private route(entry: FakeStripeRequest): { status: number; body: string } {
    const { method, path } = entry;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      return this.json(this.createSession(entry.body), this.expandList(entry.body));
    }
    if (method === 'POST' && path === '/v1/refunds') return { status: 200, body: JSON.stringify(this.createRefund(entry.body), null, 2) };
    const match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1]!);
      const stored = this.sessions.get(id);
      if (method === 'GET' && !match[2]) {
        if (!stored) throw this.noSuchSession(id);
        return this.json(stored, this.expandList(entry.query));
      }
      if (method === 'POST' && match[2]) {
        if (!stored) throw this.noSuchSession(id);
        this.expireIfDue(stored);
        if (stored.session.status !== 'open') {
          throw new StripeApiError(400, `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${stored.session.status}\`.`);
        }
        stored.session.status = 'expired';
        stored.session.url = null;
        return this.json(stored, this.expandList(entry.body));
      }
    }
    throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`);
  }

  /** `POST /v1/refunds` by `payment_intent` (or `charge`), whole or partial, never above what is left. */
  private createRefund(body: FormOf<Stripe.RefundCreateParams>): FakeRefund {
    rejectUnknown(body, REFUND_PARAMS, null);
    const unmodelled = Object.keys(body).find((k) => !(REFUND_MODELLED as ReadonlySet<string>).has(k));
    if (unmodelled) throw new StripeApiError(400, `fake-stripe does not model the refund parameter ${unmodelled}`, { param: unmodelled });
    const intentId = asString(body.payment_intent, 'payment_intent');
    const chargeId = asString(body.charge, 'charge');
    if (!intentId && !chargeId) throw new StripeApiError(400, 'One of the following params should be provided for this request: payment_intent or charge.', { code: 'parameter_missing' });
    const stored = [...this.sessions.values()].find((s) => (intentId ? s.paymentIntent?.id === intentId : s.charge?.id === chargeId));
    if (!stored) throw new StripeApiError(404, intentId ? `No such payment_intent: '${intentId}'` : `No such charge: '${chargeId}'`, { code: 'resource_missing', param: intentId ? 'payment_intent' : 'charge' });
    const charge = stored.charge;
    if (!charge) throw new StripeApiError(400, `This PaymentIntent (${intentId}) does not have a successful charge to refund.`, { code: 'charge_not_refundable' });
    const left = charge.amount_captured - charge.amount_refunded;
    if (left <= 0) throw new StripeApiError(400, `Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    const amount = asInteger(body.amount, 'amount', { min: 1 }) ?? left;
    if (amount > left) throw new StripeApiError(400, `Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${(left / 100).toFixed(2)})`, { code: 'amount_too_large', param: 'amount' });
    const reason = asString(body.reason, 'reason');
    if (reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)) throw new StripeApiError(400, `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`, { param: 'reason' });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded >= charge.amount_captured;
    const refund: FakeRefund = {
      id: randomId('re_'), object: 'refund', amount, currency: charge.currency, charge: charge.id, payment_intent: charge.payment_intent,
      created: Math.floor(this.now() / 1000), metadata: asMetadata(body.metadata, 'metadata'), reason, status: 'succeeded',
    };
    this.refunds.push(refund);
    return structuredClone(refund);
  }

  private noSuchSession(id: string): StripeApiError {
    return new StripeApiError(404, `No such checkout.session: '${id}'`, { code: 'resource_missing', param: 'session' });
  }

  private expandList(params: FormParams): string[] {
    const expand = params.expand;
    if (expand === undefined) return [];
    const list = typeof expand === 'string' ? [expand] : asArray(expand, 'expand') ?? [];
    return list.map((item, i) => {
      if (typeof item !== 'string') throw new StripeApiError(400, 'Invalid array', { param: `expand[${i}]` });
      if (!EXPANDABLE.has(item)) throw new StripeApiError(400, `This property cannot be expanded (${item}).`, { param: `expand[${i}]` });
      return item;
    });
  }

  private json(stored: StoredSession, expand: string[]): { status: number; body: string } {
    this.expireIfDue(stored);
    const session: FakeCheckoutSession = structuredClone(stored.session);
    const expandsIntent = expand.includes('payment_intent') || expand.includes('payment_intent.latest_charge');
    if (expandsIntent && stored.paymentIntent) {
      const intent = structuredClone(stored.paymentIntent);
      if (expand.includes('payment_intent.latest_charge') && stored.charge) intent.latest_charge = structuredClone(stored.charge);
      session.payment_intent = intent;
    }
    if (expand.includes('line_items')) {
      session.line_items = { object: 'list', data: structuredClone(stored.lineItems), has_more: false, url: `/v1/checkout/sessions/${session.id}/line_items` };
    }
    return { status: 200, body: JSON.stringify(session, null, 2) };
  }

  private createSession(body: FormOf<Stripe.Checkout.SessionCreateParams>): StoredSession {
    rejectUnknown(body, CREATE_PARAMS, null);
    const mode = asString(body.mode, 'mode', { required: true });
    if (mode !== 'payment') throw new StripeApiError(400, `fake-stripe models mode=payment only (got ${mode})`, { param: 'mode' });

    const items = asArray(body.line_items, 'line_items');
    if (!items || items.length === 0) throw new StripeApiError(400, 'You must provide at least one line item in `payment` mode.', { code: 'parameter_missing', param: 'line_items' });
    const now = Math.floor(this.now() / 1000);
    const lineItems: FakeLineItem[] = items.map((raw, i) => {
      const p = `line_items[${i}]`;
      const item = asObject<Stripe.Checkout.SessionCreateParams.LineItem>(raw, p) ?? {};
      if (item.price !== undefined) throw new StripeApiError(400, `No such price: '${String(item.price)}'`, { code: 'resource_missing', param: `${p}[price]` });
      const quantity = asInteger(item.quantity, `${p}[quantity]`, { required: true, min: 1 })!;
      const priceData = asObject<Stripe.Checkout.SessionCreateParams.LineItem.PriceData>(item.price_data, `${p}[price_data]`);
      if (!priceData) throw new StripeApiError(400, `Missing required param: ${p}[price_data].`, { code: 'parameter_missing', param: `${p}[price_data]` });
      const currency = asString(priceData.currency, `${p}[price_data][currency]`, { required: true })!;
      if (!/^[a-z]{3}$/.test(currency)) throw new StripeApiError(400, `Invalid currency: ${currency}.`, { param: `${p}[price_data][currency]` });
      const unitAmount = asInteger(priceData.unit_amount, `${p}[price_data][unit_amount]`, { required: true })!;
      const productData = asObject<Stripe.Checkout.SessionCreateParams.LineItem.PriceData.ProductData>(priceData.product_data, `${p}[price_data][product_data]`);
      const name = asString(productData?.name, `${p}[price_data][product_data][name]`, { required: true })!;
      return {
        id: randomId('li_'),
        object: 'item',
        amount_subtotal: unitAmount * quantity,
        amount_total: unitAmount * quantity,
        currency,
        description: name,
        quantity,
        price: { id: randomId('price_'), object: 'price', currency, unit_amount: unitAmount, product: randomId('prod_') },
      };
    });
    const currency = lineItems[0]!.currency;
    if (lineItems.some((item) => item.currency !== currency)) throw new StripeApiError(400, 'All line items must use the same currency.', { param: 'line_items' });
    const amount = lineItems.reduce((sum, item) => sum + item.amount_total, 0);

    const expiresAt = asInteger(body.expires_at, 'expires_at') ?? now + MAX_EXPIRY_S;
    if (expiresAt < now + MIN_EXPIRY_S) throw new StripeApiError(400, 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', { param: 'expires_at' });
    if (expiresAt > now + MAX_EXPIRY_S) throw new StripeApiError(400, 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', { param: 'expires_at' });

    const billing = asString(body.billing_address_collection, 'billing_address_collection');
    if (billing !== null && billing !== 'auto' && billing !== 'required') throw new StripeApiError(400, `Invalid billing_address_collection: must be one of auto or required`, { param: 'billing_address_collection' });
    const allowedTypes = asArray(body.allowed_payment_method_types, 'allowed_payment_method_types')?.map((t, i) => {
      const type = asString(t, `allowed_payment_method_types[${i}]`, { required: true })!;
      if (!/^[a-z_]+$/.test(type)) throw new StripeApiError(400, `Invalid allowed_payment_method_types[${i}]: must be one of …`, { param: `allowed_payment_method_types[${i}]` });
      return type;
    }) ?? null;
    const locale = asString(body.locale, 'locale');
    if (locale !== null && !/^(auto|[a-z]{2,3}(-[A-Z0-9]{2,3})?)$/.test(locale)) throw new StripeApiError(400, `Invalid locale: ${locale}`, { param: 'locale' });
    const email = asString(body.customer_email, 'customer_email', { max: 800 });
    if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new StripeApiError(400, `Invalid email address: ${email}`, { code: 'email_invalid', param: 'customer_email' });
    const successUrl = asString(body.success_url, 'success_url');
    const cancelUrl = asString(body.cancel_url, 'cancel_url');
    checkUrl(successUrl, 'success_url');
    checkUrl(cancelUrl, 'cancel_url');
    const intentData = asObject<Stripe.Checkout.SessionCreateParams.PaymentIntentData>(body.payment_intent_data, 'payment_intent_data');
    if (intentData) rejectUnknown(intentData, PAYMENT_INTENT_DATA_PARAMS, 'payment_intent_data');

    const id = randomId('cs_test_', 58);
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      billing_address_collection: billing as FakeCheckoutSession['billing_address_collection'],
      cancel_url: cancelUrl,
      client_reference_id: asString(body.client_reference_id, 'client_reference_id', { max: 200 }),
      created: now,
      currency,
      customer_details: null,
      customer_email: email,
      expires_at: expiresAt,
      livemode: false,
      locale,
      metadata: asMetadata(body.metadata, 'metadata'),
      mode: 'payment',
      payment_intent: null,
      allowed_payment_method_types: allowedTypes,
      // The fake account has cards enabled; the allow-list filters what the account offers.
      payment_method_types: allowedTypes ?? ['card'],
      payment_status: 'unpaid',
      status: 'open',
      success_url: successUrl,
      ui_mode: 'hosted_page',
      url: `${this.checkoutUrlBase}${id}`,
    };
    const stored: StoredSession = {
      session,
      lineItems,
      paymentIntentMetadata: asMetadata(intentData?.metadata, 'payment_intent_data[metadata]'),
      paymentIntent: null,
      charge: null,
    };
    this.sessions.set(id, stored);
    return stored;
  }
}

/** Creates a fake and starts it on a free port. */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const fake = new FakeStripe(options);
  await fake.start();
  return fake;
}
