import { lazy } from 'react';
import { lazyPage } from '../../lib/lazy-page.ts';
import { Navigate } from 'react-router';
import { Server } from 'lucide-react';
import { rootServerOrderSummary } from './order-summary.tsx';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

// Pages load when visited: this file is part of the public pages' first chunk.
const KvmConfiguratorPage = lazyPage(() => import('./components/kvm-server-page.tsx'));
const ServerDetailPage = lazy(() => import('./components/server-page.tsx'));
const MyServersSection = lazy(() => import('./components/my-servers-page.tsx').then((m) => ({ default: m.MyServersSection })));

/** The root server: its shop and upgrade, its page (one URL per OS family, spec) and its part of the neutral pages. */
export const rootServerView: ProductView = {
  kind: 'root_server',
  openLabel: 'Zum Server',
  icon: Server,
  // The dashboard shows the new server's setup progress.
  openPath: (order) => (order.subscriptionPath ? paths.dashboard.root : null),
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Server wird jetzt eingerichtet; Sie finden ihn gleich in Ihrem Kundenbereich.'
    : 'Vielen Dank. Die Änderungen an Ihrem Server werden jetzt übernommen.'),
  orderSummary: rootServerOrderSummary,
  shopRoutes: [
    { path: paths.shop.rootServer, element: <Navigate to={paths.shop.kvmServer} replace /> },
    { path: paths.shop.kvmServer, element: <KvmConfiguratorPage /> },
    { path: paths.shop.upgradeKvmServer(':serverId'), element: <KvmConfiguratorPage /> },
  ],
  portalRoutes: (['linux', 'windows', 'other'] as const).map((family) => (
    { path: paths.dashboard.serverByFamily(family, ':serverId'), element: <ServerDetailPage /> }
  )),
  MyProductsSection: MyServersSection,
};
