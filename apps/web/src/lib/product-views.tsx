import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { OrderDetail, ProductKind, Role, TicketType } from '@hp/contract';

/** One line of the order page's table: position, details and its net price. */
export interface OrderLine { label: string; detail: string; price: ReactNode }

/** The product's part of the order page: the table's heading, its caption, the price column's header and the lines. */
export interface OrderSummary {
  title: string;
  caption: string;
  priceHeader: string;
  lines: OrderLine[];
}

/**
 * One page a product adds to the app. `path` is the full URL pattern from config/paths.ts (portal routes too,
 * e.g. '/dashboard/domains/:domainId'); `roles` limits a portal page to these roles (others see /notfound).
 * The element must be a lazy page: the views are part of the public pages' first chunk. A shop page is made with
 * `lazyPage` (lib/lazy-page.ts), so a visit requests its module beside the query cache's (docs/decisions/042).
 */
export interface ProductRoute { path: string; element: ReactNode; roles?: Role[] }

/** What a ticket page tells a product's ticket panel: the ticket, whether it is closed, and who looks. */
export interface TicketPanelProps { ticketId: string; type: TicketType; closed: boolean; viewer: 'customer' | 'staff' }

/**
 * What the app shows of one product (decisions 033, 035): its pages, its section of "Meine Produkte" and
 * its part of the neutral pages (payment result, order page). Each product declares its view in its own
 * feature folder; the app provides them all (app/product-views.ts), so neither the router nor a neutral
 * feature imports a product's feature.
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
  /** Its part of the order page, from the order's `configuration` (the product's own variant; null for another product's). */
  orderSummary(order: OrderDetail): OrderSummary | null;
  /** Its pages on the public site (shop, upgrade), rendered inside the router's page wrapper (data, suspense). */
  shopRoutes: ProductRoute[];
  /** Its pages under /dashboard (the customer's page of a subscription, its staff pages). */
  portalRoutes: ProductRoute[];
  /** Its section of "Meine Produkte" (/dashboard); lazy, like the routes' pages. */
  MyProductsSection: ComponentType;
  /**
   * Its part of a ticket page (customer's and staff's), e.g. the offers of a "VDC-Anfrage"; lazy. It
   * renders nothing for tickets that are not its own.
   */
  TicketPanel?: ComponentType<TicketPanelProps>;
}

const ProductViews = createContext<Partial<Record<ProductKind, ProductView>>>({});
export const ProductViewsProvider = ProductViews.Provider;

/** Every provided view in registry order (the order of the sections on "Meine Produkte"). */
export function useProductViews(): ProductView[] {
  return Object.values(useContext(ProductViews));
}

export function useProductView(kind: ProductKind): ProductView {
  const view = useContext(ProductViews)[kind];
  if (!view) throw new Error(`no view for product ${kind}`);
  return view;
}
