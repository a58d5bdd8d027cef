import { z } from 'zod';

/**
 * Every product line the shop sells, by the key orders store (`orders.product`). A new product adds its
 * key here; everything else about it lives in its own folders (ARCHITECTURE.md, "How to add a product").
 */
export const PRODUCT_KINDS = ['root_server', 'webhosting', 'domain', 'cloud_storage'] as const;
export const ProductKind = z.enum(PRODUCT_KINDS);
export type ProductKind = z.infer<typeof ProductKind>;
