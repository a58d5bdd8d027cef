import { createContext, useContext } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { ProductKind } from '@hp/contract';

/**
 * What the neutral pages (payment result, order page) show of one product (decision 033). Each product
 * declares its view in its own feature folder; the app provides them all (app/product-views.ts), so a
 * neutral feature never imports a product's feature.
 */
export interface ProductView {
  kind: ProductKind;
  /** The button to what the order bought, e.g. "Zum Server". */
  openLabel: string;
  icon: LucideIcon;
  /** Where that button leads for this order (null: no button). `subscriptionPath` comes from the API. */
  openPath(order: { kind: 'new' | 'upgrade'; subscriptionPath: string | null }): string | null;
  /** The payment result's lead once paid. */
  paidLead(kind: 'new' | 'upgrade'): string;
}

const ProductViews = createContext<Partial<Record<ProductKind, ProductView>>>({});
export const ProductViewsProvider = ProductViews.Provider;

export function useProductView(kind: ProductKind): ProductView {
  const view = useContext(ProductViews)[kind];
  if (!view) throw new Error(`no view for product ${kind}`);
  return view;
}
