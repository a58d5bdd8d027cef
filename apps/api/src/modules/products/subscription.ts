import { and, eq, type Column, type SQL } from 'drizzle-orm';
import { orders } from '../../db/schema/index.ts';
import type { ProductKind } from './product-module.ts';

/**
 * The orders of one subscription: an order names what it created or renews by the pair (product,
 * subscription id), the id being a row of the product's own table (decision 033). `subscription` is an
 * id or the product table's id column (for a join).
 */
/** A time in a product's export section (UTC, ISO 8601), or null. */
export const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export const ordersOfSubscription = (product: ProductKind, subscription: string | Column): SQL =>
  and(eq(orders.product, product), eq(orders.subscriptionId, subscription))!;
