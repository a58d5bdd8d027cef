import { lazy } from 'react';
import { lazyPage } from '../../lib/lazy-page.ts';
import { Cloud } from 'lucide-react';
import { storageOrderSummary } from './order-summary.tsx';
import type { ProductView } from '../../lib/product-views.tsx';
import { paths } from '../../config/paths.ts';

// Pages load when visited: this file is part of the public pages' first chunk.
const StorageShopPage = lazyPage(() => import('./components/storage-shop-page.tsx'));
const StoragePage = lazy(() => import('./components/storage-page.tsx'));
const StorageServerListPage = lazy(() => import('./components/storage-server-list-page.tsx'));
const StorageSection = lazy(() => import('./components/storage-section.tsx').then((m) => ({ default: m.StorageSection })));

/** Cloud storage: its shop (new and renewal), the account's page, the staff's storage servers. */
export const storageView: ProductView = {
  kind: 'cloud_storage',
  openLabel: 'Zum Cloud-Speicher',
  icon: Cloud,
  openPath: (order) => order.subscriptionPath,
  paidLead: (kind) => (kind === 'new'
    ? 'Vielen Dank für Ihre Bestellung. Ihr Cloud-Speicher wird jetzt eingerichtet; das dauert nur einen Moment.'
    : 'Vielen Dank. Ihr Cloud-Speicher wurde verlängert; ein neuer Tarif gilt ab sofort.'),
  orderSummary: storageOrderSummary,
  shopRoutes: [{ path: paths.shop.cloudStorage, element: <StorageShopPage /> }],
  portalRoutes: [
    { path: paths.dashboard.cloudStorage(':storageId'), element: <StoragePage /> },
    { path: paths.dashboard.storageServers, element: <StorageServerListPage />, roles: ['employee', 'owner'] },
  ],
  MyProductsSection: StorageSection,
};
