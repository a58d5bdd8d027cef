import type { SQL } from 'drizzle-orm';
import type { OrderDetail, ProductCapacity } from '@hp/contract';
import type { Db, Tx } from '../../db/client.ts';
import type { orders } from '../../db/schema/index.ts';
import type { Env } from '../../env.ts';
import type { Deps } from '../../deps.ts';

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
  drivers: Pick<Deps, 'storage'>;
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

/** The product's own fields of the order page; the neutral order service sets the others to null. */
export type ProductOrderDetail = Partial<Pick<OrderDetail, 'os' | 'cpu' | 'ram' | 'storage' | 'osPriceCents' | 'network' | 'hosting' | 'domain' | 'cloudStorage' | 'discountPercent'>>;

export interface StaffSubscriptionItem {
  id: string;
  name: string;
  /** Plan and size, e.g. "500 GB · Konto mueller". */
  detail: string;
  /** The status as staff read it (German label). */
  status: string;
  expiresAt: string | null;
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
   * The product's section on the staff customer page (its live subscriptions). Products with their own
   * section there (servers, web hosting, domains: older, richer views) leave it out.
   */
  staffSection?: { title: string; empty: string; items(db: Db, customerId: string): Promise<StaffSubscriptionItem[]> };
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
