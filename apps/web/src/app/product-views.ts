import type { ProductKind } from '@hp/contract';
import type { ProductView } from '../lib/product-views.tsx';
import { rootServerView } from '../features/servers/product-view.ts';
import { hostingView } from '../features/hosting/product-view.ts';
import { domainView } from '../features/domains/product-view.ts';
import { storageView } from '../features/storage/product-view.ts';

/** Every product's view by kind: a new product adds its line here (ARCHITECTURE.md, "How to add a product"). */
export const productViews: Record<ProductKind, ProductView> = {
  root_server: rootServerView,
  webhosting: hostingView,
  domain: domainView,
  cloud_storage: storageView,
};
