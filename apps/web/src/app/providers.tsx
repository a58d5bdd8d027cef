import { lazy, Suspense, type ReactNode } from 'react';
import { ProductViewsProvider } from '../lib/product-views.tsx';
import { productViews } from './product-views.ts';

// The toast host loads after the first paint; toasts only fire from interactive (lazy) pages.
const Toaster = lazy(() => import('../components/ui/toaster.tsx'));

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ProductViewsProvider value={productViews}>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </ProductViewsProvider>
  );
}
