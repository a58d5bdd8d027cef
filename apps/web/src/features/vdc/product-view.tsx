import { lazy } from 'react';
import { lazyPage } from '../../lib/lazy-page.ts';
import { Boxes } from 'lucide-react';
import { vdcOrderSummary } from './order-summary.tsx';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

// Pages load when visited: this file is part of the public pages' first chunk.
const VdcShopPage = lazyPage(() => import('./components/vdc-shop-page.tsx'));
const VdcPage = lazy(() => import('./components/vdc-page.tsx'));
const VdcListPage = lazy(() => import('./components/vdc-list-page.tsx'));
const VdcSection = lazy(() => import('./components/vdc-section.tsx').then((m) => ({ default: m.VdcSection })));
const VdcTicketOffers = lazy(() => import('./components/vdc-offer-form.tsx'));

/** Virtual data center (issue 25): its shop (configurator and request, renewal), the pool page, the staff list. */
export const vdcView: ProductView = {
  kind: 'vdc',
  openLabel: 'Zum Virtual Data Center',
  icon: Boxes,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Virtual Data Center wird jetzt eingerichtet; das dauert nur einen Moment.'
    : 'Vielen Dank. Ihr Virtual Data Center wurde verlängert; neue Ressourcen gelten ab sofort.'),
  orderSummary: vdcOrderSummary,
  shopRoutes: [{ path: paths.shop.vdcRequest, element: <VdcShopPage /> }],
  portalRoutes: [
    { path: paths.dashboard.vdc(':vdcId'), element: <VdcPage /> },
    { path: paths.dashboard.vdcs, element: <VdcListPage />, roles: ['employee', 'owner'] },
  ],
  MyProductsSection: VdcSection,
  TicketPanel: VdcTicketOffers,
};
