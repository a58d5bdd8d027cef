import type { ProductKind } from '@hp/contract';
import type { ProductView } from '../lib/product-views.tsx';
import { rootServerView } from '../features/servers/product-view.tsx';
import { hostingView } from '../features/hosting/product-view.tsx';
import { domainView } from '../features/domains/product-view.tsx';
import { storageView } from '../features/storage/product-view.tsx';
import { vdcView } from '../features/vdc/product-view.tsx';

/**
 * Every product's view by kind, in registry order (root server, web hosting, domains, cloud storage, virtual data center): the
 * router, the portal's routes and "Meine Produkte" map over them. A new product adds its line here
 * (ARCHITECTURE.md, "How to add a product").
 */
export const productViews: Record<ProductKind, ProductView> = {
  root_server: rootServerView,
  webhosting: hostingView,
  domain: domainView,
  cloud_storage: storageView,
  vdc: vdcView,
};
