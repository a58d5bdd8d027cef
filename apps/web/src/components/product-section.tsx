import type { ComponentType, ReactNode, SVGProps } from 'react';
import { Link } from 'react-router';
import { buttonClass } from './ui/button.tsx';
import { Alert, Card, Spinner } from './ui/card.tsx';

interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
  items: T[] | undefined;
}

/**
 * One product's section of "Meine Produkte" (/dashboard): heading with the order link, loading, error
 * with retry, an empty state, and the cards. Servers, web hosting and domains look and behave alike.
 */
export function ProductSection<T>({ id, title, orderLink, query, loadingLabel, empty, listLabel, renderItem }: {
  id: string;
  title: string;
  orderLink: { to: string; label: string };
  query: ListQuery<T>;
  loadingLabel: string;
  empty: { icon: ComponentType<SVGProps<SVGSVGElement>>; title: string; text: string };
  listLabel: string;
  renderItem: (item: T) => ReactNode;
}) {
  const { icon: EmptyIcon } = empty;
  const headingId = `${id}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">{title}</h2>
        <Link to={orderLink.to} className={buttonClass('primary', 'sm')}>{orderLink.label}</Link>
      </div>
      {query.isPending && <div className="mt-6"><Spinner label={loadingLabel} /></div>}
      {query.isError && (
        <Alert tone="error" className="mt-6">
          {query.error?.message} <button type="button" className="font-medium underline" onClick={() => query.refetch()}>Erneut versuchen</button>
        </Alert>
      )}
      {query.items && query.items.length === 0 && (
        <Card className="mt-6 flex flex-col items-center gap-3 p-8 text-center">
          <EmptyIcon className="size-10 text-slate-400" aria-hidden="true" />
          <h3 className="text-lg font-semibold text-slate-900">{empty.title}</h3>
          <p className="text-slate-600">{empty.text}</p>
        </Card>
      )}
      {query.items && query.items.length > 0 && (
        <ul className="mt-6 grid gap-6 md:grid-cols-2 xl:grid-cols-3" aria-label={listLabel}>
          {query.items.map(renderItem)}
        </ul>
      )}
    </section>
  );
}
