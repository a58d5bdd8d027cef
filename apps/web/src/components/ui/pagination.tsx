import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button.tsx';

/** Previous/next paging for server-side lists; hidden when everything fits on one page. */
export function Pagination({ offset, limit, total, onOffsetChange, label = 'Seiten' }: {
  offset: number;
  limit: number;
  total: number;
  onOffsetChange: (offset: number) => void;
  label?: string;
}) {
  if (total <= limit) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3 text-sm text-slate-700">
      <span aria-live="polite">Seite {page} von {pages} · {total} Einträge</span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - limit))}>
          <ChevronLeft className="size-4" aria-hidden="true" /> Zurück
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onOffsetChange(offset + limit)}>
          Weiter <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
