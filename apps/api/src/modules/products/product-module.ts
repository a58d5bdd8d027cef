import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { OrderConfiguration, ProductCapacity, StaffSubscriptionItem } from '@hp/contract';
import type { Db, Tx } from '../../db/client.ts';
import type { orders } from '../../db/schema/index.ts';
import type { Env } from '../../env.ts';
import type { OutsideSystems } from '../../drivers/outside-systems.ts';

/**
 * The port every product implements (decision 022). Checkout, payment fulfilment, invoicing and the
 * order pages are product-neutral and call these steps; what a product holds, creates and is called
 * lives in its module. The root server is the first product, web hosting the second, domains the third.
 */
export type OrderRow = typeof orders.$inferSelect;
export type OrderValues = typeof orders.$inferInsert;
export type ProductKind = OrderRow['product'];

/** What a product's reserve step writes into the new order: its configuration, its holds and the price. */
export type ReservedOrder = Omit<OrderValues, 'id' | 'number' | 'userId' | 'product' | 'holdUntil' | 'paymentProvider' | 'status'>;

export interface ReserveContext {
  userId: string;
  env: Env;
  /** Until when a pending order holds what it reserved. */
  holdUntil: Date;
}

/** What a product may ask before the checkout's transaction: the database and the outside systems. */
export interface PrecheckContext {
  userId: string;
  env: Env;
  db: Db;
  drivers: OutsideSystems;
}

export interface FulfilContext {
  now: Date;
  env: Env;
  log?: { warn: (obj: object, msg: string) => void };
}

export interface InvoiceLineText {
  name: string;
  description: string;
  /** The line's quantity and UN/ECE unit when the term is not counted in months (domains: years, ANN). */
  quantity?: number;
  unitCode?: string;
}

/** Where a subscription's paid term ends now (renewals move it), and whether it was deleted. */
export interface SubscriptionTerm {
  expiresAt: Date | null;
  deletedAt: Date | null;
}

/** The product's part of the order page (its own variant of the contract's OrderConfiguration), and the discount when it has no term discount. */
export interface ProductOrderDetail {
  configuration: OrderConfiguration;
  discountPercent?: number;
}

/** One subscription on the staff customer page (the contract's shape, shared by every product). */
export type { StaffSubscriptionItem };

/**
 * Where a product's subscriptions live, for the churn figures of the statistics (decision 017): the
 * table and its owner, term end and deletion columns, and which rows were ever a running subscription.
 */
export interface ChurnSource {
  /** The plural in the statistics' column "Ausgelaufene …", e.g. "Webhosting-Pakete". */
  label: string;
  table: PgTable;
  ownerId: AnyPgColumn;
  /** The end of the paid term; null for a subscription without a term (a server staff created) or one not started yet. */
  expiresAt: AnyPgColumn;
  deletedAt: AnyPgColumn;
  /** Rows that count (a delivery that failed and was refunded never ran, so it neither churns nor keeps a customer). */
  where?: SQL;
}

export interface ProductModule<Input> {
  kind: ProductKind;
  /** The product's name on orders, payment pages and invoices. */
  name: string;
  /**
   * Runs inside the checkout transaction, after the customer's row lock and the open-checkout cap:
   * validates the (contract-parsed) input against the current state, holds what the order needs (row
   * locks; a conflict throws an AppError) and returns the order's configuration and price (integer
   * cents, from the product's price function in packages/contract).
   */
  reserve(tx: Tx, ctx: ReserveContext, input: Input): Promise<ReservedOrder>;
  /**
   * Runs before the checkout's transaction, without locks: questions to outside systems that may take
   * a while (cloud storage: is the name free on the storage server, does the use fit a smaller plan?).
   * Never called inside a transaction, so a slow system holds no lock (and PGlite's one connection is free).
   */
  precheck?(ctx: PrecheckContext, input: Input): Promise<void>;
  /** The open orders that are "the same purchase again" (second tab, back button): replaced, not stacked. */
  sameOrder(input: Input, env: Env): SQL | undefined;
  /** Gives back what a pending order held when it is cancelled (capacity held by status needs nothing). */
  release(tx: Tx, order: OrderRow): Promise<void>;
  /**
   * A pending order whose hold still lasts gets a later one (a new payment attempt, decision 028): moves
   * what the product stamped with the old hold time to `holdUntil` (capacity held by status needs nothing).
   */
  renewHold?(tx: Tx, order: OrderRow, holdUntil: Date): Promise<void>;
  /** The product's own shop (site path with query), prefilled with the order's configuration where it can be. */
  shopPath(order: OrderRow): string;
  /**
   * The customer's page of the subscription the order created, renews or changes (orders.subscription_id;
   * null until payment created it). Linked from the order and the payment result.
   */
  subscriptionPath(order: OrderRow): string | null;
  /** The current terms of these subscriptions, by id: an order of a live subscription bills next at its end. */
  terms(db: Db, ids: string[]): Promise<Map<string, SubscriptionTerm>>;
  /** The product's part of the customer's order page (its configuration, with per-month prices where it has them). */
  orderDetail(db: Db, order: OrderRow): Promise<ProductOrderDetail>;
  /**
   * While the customer holds a live subscription of this product, their account cannot be deleted
   * (decision 018): the refusal's code and German message, or null.
   */
  deletionBlock(tx: Tx, customerId: string): Promise<{ code: string; message: string } | null>;
  /**
   * The customer's subscriptions of this product in the DSGVO export (Art. 15/20, decision 018): the
   * section's key in daten.json and its rows, built from explicit column lists.
   */
  exportSection: { key: string; rows(db: Db, userId: string): Promise<object[]> };
  /**
   * The product's section on the staff customer page: its title, the text when the customer has none,
   * and the customer's live subscriptions (not deleted) in the product's own order.
   */
  staffSection: { title: string; empty: string; items(db: Db, customerId: string): Promise<StaffSubscriptionItem[]> };
  /**
   * The customer's name, address or e-mail changed (profile, staff edit, confirmed new address), inside
   * the change's transaction where there is one: a product that keeps a copy at an outside system
   * (domains: the registrant contact at the registrar) queues bringing it up to date.
   */
  contactChanged?(db: Pick<Db, 'select' | 'insert'>, userId: string): Promise<void>;
  /** The product's subscriptions for the churn figures of the statistics (ended terms per month, lost customers). */
  churnSource: ChurnSource;
  /** The product's own servers in the statistics' capacity part: what they hold, may sell and have sold. */
  capacity?(db: Db, env: Env): Promise<ProductCapacity>;
  /** The line on the provider's payment page. */
  paymentLine(order: OrderRow): string;
  /** The invoice line (the quantity is the term in months). */
  invoiceLine(order: OrderRow): InvoiceLineText;
  /**
   * Runs inside the one transaction that moved the order from pending to processing (exactly once):
   * creates the subscription ('new') or extends/changes it ('upgrade'), sets the order's period and
   * enqueues the delivery job, which completes the order. 'failed': the order was marked failed
   * instead (e.g. the subscription to renew is gone) and is not invoiced.
   */
  fulfil(tx: Tx, order: OrderRow, ctx: FulfilContext): Promise<'delivering' | 'failed'>;
}
