import { lazy, Suspense, type ReactNode } from 'react';

// The toast host loads after the first paint; toasts only fire from interactive (lazy) pages.
const Toaster = lazy(() => import('../components/ui/toaster.tsx'));

export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}
