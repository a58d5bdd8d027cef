import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button.tsx';

/** Previous/next paging for server-side lists; hidden when everything fits on one page. */
const count = new Intl.NumberFormat('de-DE');

/** `totalCapped`: the server stopped counting at `total`; there are more entries and more pages. */
export function Pagination({ offset, limit, total, totalCapped = false, onOffsetChange, label = 'Seiten' }: {
  offset: number;
  limit: number;
  total: number;
  totalCapped?: boolean;
  onOffsetChange: (offset: number) => void;
  label?: string;
}) {
  if (total <= limit && !totalCapped) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  const more = totalCapped ? 'mehr als ' : '';
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3 text-sm text-slate-700">
      <span aria-live="polite">Seite {page} von {more}{count.format(pages)} · {more}{count.format(total)} Einträge</span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - limit))}>
          <ChevronLeft className="size-4" aria-hidden="true" /> Zurück
        </Button>
        <Button variant="outline" size="sm" disabled={page >= pages && !totalCapped} onClick={() => onOffsetChange(offset + limit)}>
          Weiter <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
