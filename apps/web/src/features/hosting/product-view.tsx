import { lazy } from 'react';
import { lazyPage } from '../../lib/lazy-page.ts';
import { Globe } from 'lucide-react';
import { hostingOrderSummary } from './order-summary.tsx';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

// Pages load when visited: this file is part of the public pages' first chunk.
const WebhostingShopPage = lazyPage(() => import('./components/webhosting-shop-page.tsx'));
const HostingPage = lazy(() => import('./components/hosting-page.tsx'));
const WebhostingRedirect = lazy(() => import('./components/webhosting-redirect.tsx'));
const HostingServerListPage = lazy(() => import('./components/hosting-server-list-page.tsx'));
const HostingPackagesSection = lazy(() => import('./components/packages-section.tsx').then((m) => ({ default: m.HostingPackagesSection })));

/** Web hosting: its shop, the package page (and the spec's /dashboard/WebDetails), the staff's hosting servers. */
export const hostingView: ProductView = {
  kind: 'webhosting',
  openLabel: 'Zum Hosting-Paket',
  icon: Globe,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Hosting-Paket wird jetzt eingerichtet; das dauert etwa eine Minute.'
    : 'Vielen Dank. Die Laufzeit Ihres Hosting-Pakets wurde verlängert.'),
  orderSummary: hostingOrderSummary,
  shopRoutes: [{ path: paths.shop.webhosting, element: <WebhostingShopPage /> }],
  portalRoutes: [
    { path: paths.dashboard.webhosting(':hostingId'), element: <HostingPage /> },
    { path: paths.dashboard.webhostingDetails, element: <WebhostingRedirect /> },
    { path: paths.dashboard.hostingServers, element: <HostingServerListPage />, roles: ['employee', 'owner'] },
  ],
  MyProductsSection: HostingPackagesSection,
};
