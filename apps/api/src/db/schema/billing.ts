import { pgTable, text, timestamp, integer, uuid, index, uniqueIndex, jsonb, bigserial, bigint, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { nodes, ipAddresses } from './infrastructure.ts';
import { hostingServers } from './hosting.ts';
import type { InvoiceDocument } from './invoice-document.ts';
import { PRODUCT_KINDS, type OrderTax } from '@hp/contract';

/**
 * An order of one product (decision 022): a new subscription ('new') or an upgrade/renewal of an existing
 * one ('upgrade'). While the payment is open ('pending' until holdUntil) what it needs is held (a root
 * server: node capacity and an IPv4), so nothing is sold twice. Paid → 'processing' (exactly once, see
 * syncCheckout) → 'completed'.
 *
 * The product's configuration is validated by its contract schema. A product whose configuration the
 * database computes with keeps it in typed columns (the root server: node capacity sums); the others
 * keep it in `config`. Each product module reads and writes its own part (modules/products).
 */

export const orders = pgTable('orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Shown to the customer; from orders_number_seq. */
  number: bigint('number', { mode: 'number' }).notNull().default(sql`nextval('orders_number_seq')`),
  userId: uuid('user_id').notNull().references(() => users.id),
  product: text('product', { enum: PRODUCT_KINDS }).notNull().default('root_server'),
  /** The configuration of products without typed columns, as their contract schema parsed it. */
  config: jsonb('config').$type<Record<string, unknown>>(),
  kind: text('kind', { enum: ['new', 'upgrade'] }).notNull(),
  status: text('status', { enum: ['pending', 'processing', 'completed', 'cancelled', 'refunded', 'failed'] }).notNull().default('pending'),
  /**
   * The subscription this order created (new, set at payment) or renews or changes (upgrade): a row of
   * the product's own table (root server: servers, web hosting: hosting_packages, domain: domains),
   * named by the pair (product, subscription_id) (decision 033).
   */
  subscriptionId: uuid('subscription_id'),
  /** Web hosting: the server whose slot a new order holds. */
  hostingServerId: integer('hosting_server_id').references(() => hostingServers.id),
  /** Root server: the node that holds (new) or runs (upgrade) it. */
  nodeId: integer('node_id').references(() => nodes.id),
  /** New orders: the IPv4 held for the server. Staff may delete the address later; the order keeps its text. */
  ipAddressId: integer('ip_address_id').references(() => ipAddresses.id, { onDelete: 'set null' }),
  /** The address as it was when held or assigned: history survives the pool entry. */
  ipAddress: text('ip_address'),
  /** Root server configuration (typed: capacity is summed from it). */
  osFamily: text('os_family', { enum: ['linux', 'windows'] }),
  os: text('os'),
  cpuCores: integer('cpu_cores'),
  ramGb: integer('ram_gb'),
  storageGb: integer('storage_gb'),
  months: integer('months').notNull(),
  /** Extra capacity this order needs on the node while pending (new: all; upgrade: the growth). */
  holdCpuCores: integer('hold_cpu_cores').notNull().default(0),
  holdRamGb: integer('hold_ram_gb').notNull().default(0),
  holdStorageGb: integer('hold_storage_gb').notNull().default(0),
  holdUntil: timestamp('hold_until', { withTimezone: true }).notNull(),
  /** Gross in cents, computed by the server (pricing.ts); net + VAT = gross. */
  amountCents: integer('amount_cents').notNull(),
  netCents: integer('net_cents').notNull(),
  vatCents: integer('vat_cents').notNull(),
  /**
   * The tax decision of the sale (issue 24, decision 031): rate, category, place of supply, VAT-ID
   * proof. Frozen when the order is placed; the amounts above follow it. Null on orders from before:
   * they were German consumer sales at 19 % (LEGACY_ORDER_TAX).
   */
  tax: jsonb('tax').$type<OrderTax>(),
  currency: text('currency').notNull().default('eur'),
  paymentProvider: text('payment_provider').notNull(),
  paymentSessionId: text('payment_session_id'),
  paymentUrl: text('payment_url'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  billingName: text('billing_name'),
  billingAddress: jsonb('billing_address').$type<{ line1: string | null; line2: string | null; postalCode: string | null; city: string | null; country: string | null }>(),
  /** Service period the payment covers (set at payment). */
  periodStart: timestamp('period_start', { withTimezone: true }),
  periodEnd: timestamp('period_end', { withTimezone: true }),
  failureReason: text('failure_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  /** A failed paid order paid back automatically (decision 023): when, and the provider's refund id. */
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  refundId: text('refund_id'),
}, (t) => [
  uniqueIndex('orders_number_idx').on(t.number),
  uniqueIndex('orders_payment_session_idx').on(t.paymentSessionId),
  index('orders_user_idx').on(t.userId, t.createdAt),
  index('orders_pending_node_idx').on(t.nodeId).where(sql`status = 'pending'`),
  index('orders_pending_hosting_idx').on(t.hostingServerId).where(sql`status = 'pending'`),
  index('orders_subscription_idx').on(t.product, t.subscriptionId),
  check('orders_root_server_config', sql`${t.product} <> 'root_server' or (${t.nodeId} is not null and ${t.osFamily} is not null and ${t.os} is not null and ${t.cpuCores} is not null and ${t.ramGb} is not null and ${t.storageGb} is not null)`),
  check('orders_product_config', sql`${t.product} = 'root_server' or ${t.config} is not null`),
]);

/** Issued invoices and credit notes. Never updated after insert; the document is the frozen content. */
export const invoices = pgTable('invoices', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ['invoice', 'credit_note'] }).notNull(),
  /** Gap-free per year and kind (invoice_counters), e.g. RE-2026-000001. */
  number: text('number').notNull(),
  year: integer('year').notNull(),
  sequence: integer('sequence').notNull(),
  /** The order an invoice bills; null for a manual invoice written by staff (source 'manual'). */
  orderId: uuid('order_id').references(() => orders.id),
  userId: uuid('user_id').notNull().references(() => users.id),
  source: text('source', { enum: ['order', 'manual'] }).notNull().default('order'),
  /** Staff member who wrote a manual invoice or issued a credit note from the customer page. */
  createdBy: uuid('created_by').references(() => users.id),
  /** For a credit note: the invoice it corrects. */
  correctsInvoiceId: uuid('corrects_invoice_id'),
  grossCents: integer('gross_cents').notNull(),
  issueDate: text('issue_date').notNull(),
  dueDate: text('due_date').notNull(),
  document: jsonb('document').$type<InvoiceDocument>().notNull(),
  mailedAt: timestamp('mailed_at', { withTimezone: true }),
  /**
   * Payment state (not part of the frozen document): set when the payments reach the gross amount; card
   * invoices are paid at issue. A credit note sets credited_at on the invoice it corrects. State:
   * paid (paid_at) · credited (credited_at, unpaid) · overdue (due_date before today) · open.
   */
  paidAt: timestamp('paid_at', { withTimezone: true }),
  creditedAt: timestamp('credited_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Figures of the frozen document for the statistics (docs/decisions/017), generated by the database so
   * that every writer (checkout, manual invoice, credit note) fills them and no query parses the JSON.
   * Months are counted as year * 12 + month - 1 (Berlin calendar, like the document's dates).
   */
  netCents: integer('net_cents').notNull().generatedAlwaysAs(sql`coalesce(("document" -> 'totals' ->> 'netCents')::integer, 0)`),
  /** Net of the lines billed per month or year (unit 'MON' or 'ANN', decision 024); one-off lines (setup, manual extras) are not recurring. */
  recurringNetCents: integer('recurring_net_cents').notNull().generatedAlwaysAs(sql`invoice_recurring_net_cents("document")`),
  /** The term in months (the largest quantity of a 'MON' line, or 12 × that of an 'ANN' line); 0 without a recurring line. */
  termMonths: integer('term_months').notNull().generatedAlwaysAs(sql`invoice_term_months("document")`),
  /** First month of the service period and the month after its last one (exclusive). */
  serviceMonth: integer('service_month').notNull().generatedAlwaysAs(sql`(substr(coalesce("document" ->> 'periodStart', "issue_date"), 1, 4)::integer * 12 + substr(coalesce("document" ->> 'periodStart', "issue_date"), 6, 2)::integer - 1)`),
  serviceEndMonth: integer('service_end_month').notNull().generatedAlwaysAs(sql`(substr(coalesce("document" ->> 'periodStart', "issue_date"), 1, 4)::integer * 12 + substr(coalesce("document" ->> 'periodStart', "issue_date"), 6, 2)::integer - 1 + invoice_term_months("document"))`),
  issueMonth: integer('issue_month').notNull().generatedAlwaysAs(sql`(substr("issue_date", 1, 4)::integer * 12 + substr("issue_date", 6, 2)::integer - 1)`),
}, (t) => [
  uniqueIndex('invoices_number_idx').on(t.number),
  // Statistics: revenue by issue month, MRR over the terms still running in the range, first paid invoice.
  index('invoices_issue_month_idx').on(t.issueMonth, t.kind, t.netCents),
  index('invoices_recurring_idx').on(t.serviceEndMonth, t.serviceMonth, t.recurringNetCents, t.termMonths, t.userId, t.creditedAt).where(sql`kind = 'invoice' and recurring_net_cents > 0`),
  index('invoices_first_paid_idx').on(t.userId, t.issueMonth).where(sql`kind = 'invoice' and paid_at is not null`),
  // Receivables: covers every column the statistics read of an unpaid invoice (index-only, docs/decisions/020).
  // The §3a Abs. 5 threshold (modules/tax): every shop page and checkout sums these; only the few
  // cross-border consumer documents are in this index, read without touching the documents.
  index('invoices_cross_border_consumer_idx').on(t.year, t.kind, t.netCents).where(sql`(document -> 'tax' ->> 'crossBorderConsumer') = 'true'`),
  index('invoices_unpaid_idx').on(t.dueDate, t.issueDate, t.netCents, t.grossCents, t.id).where(sql`kind = 'invoice' and paid_at is null and credited_at is null`),
  uniqueIndex('invoices_kind_year_seq_idx').on(t.kind, t.year, t.sequence),
  // One invoice per order; credit notes reference theirs.
  uniqueIndex('invoices_order_invoice_idx').on(t.orderId).where(sql`kind = 'invoice'`),
  index('invoices_user_idx').on(t.userId, t.createdAt),
]);

/** Payments received for an invoice: the card payment at checkout, or transfers and SEPA recorded by staff. */
export const invoicePayments = pgTable('invoice_payments', {
  id: uuid('id').primaryKey().defaultRandom(),
  invoiceId: uuid('invoice_id').notNull().references(() => invoices.id),
  amountCents: integer('amount_cents').notNull(),
  method: text('method', { enum: ['card', 'transfer', 'sepa'] }).notNull(),
  /** YYYY-MM-DD, the value date the staff member entered (card: the payment date in Berlin). */
  paidOn: text('paid_on').notNull(),
  recordedBy: uuid('recorded_by').references(() => users.id),
  note: text('note'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('invoice_payments_invoice_idx').on(t.invoiceId)]);

/** The last number issued per kind and year; locked while the next invoice is inserted (gap-free). */
export const invoiceCounters = pgTable('invoice_counters', {
  kind: text('kind').notNull(),
  year: integer('year').notNull(),
  last: integer('last').notNull(),
}, (t) => [uniqueIndex('invoice_counters_pk').on(t.kind, t.year)]);

/** Webhook events already handled: the provider delivers the same event more than once. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  sessionId: text('session_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Durable jobs (ARCHITECTURE: claimed with FOR UPDATE SKIP LOCKED so exactly one instance runs each).
 * A job whose lease ran out (process killed) is claimed again; handlers are idempotent.
 */
export const jobs = pgTable('jobs', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
  /** At most one queued/running job per key (e.g. provision:<orderId>). */
  dedupeKey: text('dedupe_key'),
  status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(8),
  runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('jobs_dedupe_idx').on(t.dedupeKey),
  index('jobs_due_idx').on(t.runAt).where(sql`status in ('queued', 'running')`),
]);

/**
 * Periodic work (the task settler, the billing housekeeping): one row per schedule. An instance runs a
 * period only after moving next_run_at forward with a conditional UPDATE, so of several instances exactly
 * one runs each period (jobs/scheduler.ts).
 */
export const schedules = pgTable('schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastOwner: text('last_owner'),
  runs: bigint('runs', { mode: 'number' }).notNull().default(0),
  lastError: text('last_error'),
});

/** State of the simulated payment provider (embedded default), like Stripe's checkout sessions. */
export const simCheckoutSessions = pgTable('sim_checkout_sessions', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull(),
  orderId: text('order_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  currency: text('currency').notNull(),
  productName: text('product_name').notNull(),
  customerEmail: text('customer_email').notNull(),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  status: text('status', { enum: ['open', 'complete', 'expired'] }).notNull().default('open'),
  paymentStatus: text('payment_status', { enum: ['paid', 'unpaid'] }).notNull().default('unpaid'),
  declined: integer('declined').notNull().default(0),
  customerName: text('customer_name'),
  address: jsonb('address').$type<{ line1: string | null; line2: string | null; postalCode: string | null; city: string | null; country: string | null }>(),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** The one refund of this payment (the simulated provider refunds whole payments only). */
  refundId: text('refund_id'),
  refundedCents: integer('refunded_cents').notNull().default(0),
}, (t) => [uniqueIndex('sim_checkout_idem_idx').on(t.idempotencyKey)]);
