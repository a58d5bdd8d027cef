import type { OrderRow, ProductKind, ProductModule } from './product-module.ts';
import { rootServerProduct } from './root-server.ts';
import { hostingProduct } from '../hosting/hosting.product.ts';
import { domainProduct } from '../domains/domain.product.ts';
import { storageProduct } from '../storage/storage.product.ts';

/** Every product the shop sells, by kind (decision 022). */
const products: { [K in ProductKind]?: ProductModule<never> } = {
  root_server: rootServerProduct as ProductModule<never>,
  webhosting: hostingProduct as ProductModule<never>,
  domain: domainProduct as ProductModule<never>,
  cloud_storage: storageProduct as ProductModule<never>,
};

export function productOf(kind: ProductKind): ProductModule<never> {
  const product = products[kind];
  if (!product) throw new Error(`no product module for ${kind}`);
  return product;
}

/** Every product in the order the shop lists them (root server, web hosting, domains). */
export const allProducts = (): ProductModule<never>[] => Object.values(products);

export const productOfOrder = (order: Pick<OrderRow, 'product'>) => productOf(order.product);
