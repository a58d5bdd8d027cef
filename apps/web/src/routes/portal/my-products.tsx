import { Suspense } from 'react';
import { PageMeta } from '../../components/page-meta.tsx';
import { Spinner } from '../../components/ui/card.tsx';
import { useProductViews } from '../../lib/product-views.tsx';

/** /dashboard, "Meine Produkte": one section per product (app/product-views.ts, in registry order). */
export default function MyProductsPage() {
  const views = useProductViews();
  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title="Meine Produkte" />
      <h1 className="text-2xl font-bold text-slate-900">Meine Produkte</h1>
      {/* The sections are lazy: one fallback until all have loaded, so they never appear out of order. */}
      <Suspense fallback={<div className="mt-6"><Spinner label="Lade Ihre Produkte …" /></div>}>
        <div className="mt-6 space-y-10">
          {views.map(({ kind, MyProductsSection }) => <MyProductsSection key={kind} />)}
        </div>
      </Suspense>
    </div>
  );
}
