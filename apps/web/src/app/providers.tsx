import { lazy, Suspense, type ReactNode } from 'react';

// The toast host loads after the first paint; toasts only fire from interactive (lazy) pages.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

export function Providers({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <Toaster position="top-right" richColors closeButton duration={5000} />
      </Suspense>
    </>
  );
}
