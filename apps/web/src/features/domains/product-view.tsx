import { lazy } from 'react';
import { lazyPage } from '../../lib/lazy-page.ts';
import { Globe } from 'lucide-react';
import { domainOrderSummary } from './order-summary.tsx';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

// Pages load when visited: this file is part of the public pages' first chunk.
const DomainShopPage = lazyPage(() => import('./components/domain-shop-page.tsx'));
const DomainPage = lazy(() => import('./components/domain-page.tsx'));
const DomainsSection = lazy(() => import('./components/domains-section.tsx').then((m) => ({ default: m.DomainsSection })));

/** Domains: the order (register, transfer, renew), the domain's page and its part of the neutral pages. */
export const domainView: ProductView = {
  kind: 'domain',
  openLabel: 'Zur Domain',
  icon: Globe,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Wir beauftragen jetzt die Vergabestelle; den Stand sehen Sie bei Ihrer Domain.'
    : 'Vielen Dank. Wir verlängern Ihre Domain jetzt bei der Vergabestelle.'),
  orderSummary: domainOrderSummary,
  shopRoutes: [{ path: paths.shop.domain, element: <DomainShopPage /> }],
  portalRoutes: [{ path: paths.dashboard.domain(':domainId'), element: <DomainPage /> }],
  MyProductsSection: DomainsSection,
};
