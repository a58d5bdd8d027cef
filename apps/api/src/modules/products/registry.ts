import type { OrderRow, ProductKind, ProductModule } from './product-module.ts';

/**
 * Every product the shop sells, by kind (decisions 022 and 035). The composition root (app.ts) builds it
 * from the products its module list declares (`defineProduct`) and hands it to every module as
 * `deps.products`; neutral modules (orders, payments, invoices, customers, statistics, export) loop over
 * it and never import a product's folder.
 */
export interface ProductRegistry {
  of(kind: ProductKind): ProductModule<never>;
  ofOrder(order: Pick<OrderRow, 'product'>): ProductModule<never>;
  /** In the order the shop lists them (the module list's order). */
  all(): readonly ProductModule<never>[];
}

/** The registry of the products a module list declares (`defineProduct`), in the list's order. */
/** Tells every product that the customer's contact data changed (`ProductModule.contactChanged`). */
export async function contactChanged(products: ProductRegistry, db: Parameters<NonNullable<ProductModule<never>['contactChanged']>>[0], userId: string) {
  for (const product of products.all()) await product.contactChanged?.(db, userId);
}

export function createProductRegistry(modules: readonly { product?: ProductModule<never> }[]): ProductRegistry {
  const byKind = new Map<ProductKind, ProductModule<never>>();
  for (const { product } of modules) {
    if (!product) continue;
    if (byKind.has(product.kind)) throw new Error(`product ${product.kind} is declared twice`);
    byKind.set(product.kind, product);
  }
  const of = (kind: ProductKind) => {
    const product = byKind.get(kind);
    if (!product) throw new Error(`no product module for ${kind}`);
    return product;
  };
  const all = [...byKind.values()];
  return { of, ofOrder: (order) => of(order.product), all: () => all };
}
