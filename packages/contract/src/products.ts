import { z } from 'zod';
import { RootServerOrderSummary } from './servers.ts';
import { HostingOrderSummary } from './hosting.ts';
import { DomainOrderSummary } from './domains.ts';
import { StorageOrderSummary } from './storage.ts';
import { VdcOrderSummary } from './vdc.ts';

/**
 * Every product line the shop sells, by the key orders store (`orders.product`). A new product adds its
 * key here and its order page part to `OrderConfiguration` below; everything else about it lives in its
 * own folders (ARCHITECTURE.md, "How to add a product").
 */
export const PRODUCT_KINDS = ['root_server', 'webhosting', 'domain', 'cloud_storage', 'vdc'] as const;
export const ProductKind = z.enum(PRODUCT_KINDS);
export type ProductKind = z.infer<typeof ProductKind>;

/**
 * What the order bought, in the product's own shape (decision 035): each product's schema lives in its
 * contract file and its order page part in its web feature; this union is the registration point.
 */
export const OrderConfiguration = z.discriminatedUnion('product', [RootServerOrderSummary, HostingOrderSummary, DomainOrderSummary, StorageOrderSummary, VdcOrderSummary]);
export type OrderConfiguration = z.infer<typeof OrderConfiguration>;
// Every product kind has its part of the order page: a new kind without one fails the typecheck here.
const everyProductHasASummary: Exclude<ProductKind, OrderConfiguration['product']> extends never ? true : never = true;
void everyProductHasASummary;
