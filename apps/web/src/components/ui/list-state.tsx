import type { ReactNode } from 'react';
import { RefreshCw } from 'lucide-react';
import { Button } from './button.tsx';
import { Alert, Card, Spinner } from './card.tsx';

interface ListQuery { isPending: boolean; isError: boolean; error: Error | null; isFetching: boolean; refetch: () => unknown }

/** Loading, error (with retry) and empty states of a list; renders the list otherwise. */
export function ListState({ query, isEmpty, loadingLabel, errorText, empty, children }: {
  query: ListQuery;
  isEmpty: boolean;
  loadingLabel: string;
  errorText: string;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (query.isPending) return <div className="py-10"><Spinner label={loadingLabel} /></div>;
  if (query.isError) {
    return (
      <Alert tone="error" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <span>{errorText} {query.error?.message}</span>
        <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
          <RefreshCw className="size-4" aria-hidden="true" /> Erneut versuchen
        </Button>
      </Alert>
    );
  }
  if (isEmpty) return <Card className="px-5 py-8 text-center text-slate-700">{empty}</Card>;
  return <>{children}</>;
}
