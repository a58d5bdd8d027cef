import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Card } from '../../../components/ui/card.tsx';

/** Building blocks shared by the tabs of the status management page. */
// Plain buttons: Button's own size and colour classes would clash with these (cn does not merge classes).
export const iconDeleteClass = 'inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2';
export const deleteClass = 'inline-flex h-9 shrink-0 items-center gap-2 self-start rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2';

export const showError = (err: unknown) => toast.error(err instanceof Error ? err.message : 'Es ist ein Fehler aufgetreten.');
export const options = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
  values.map((v) => <option key={v} value={v}>{labels[v]}</option>);

/** Status management for staff. The API enforces the role as well; this guard only spares a useless page. */
export function FormCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

export function ListHeading({ children }: { children: ReactNode }) {
  return <h2 className="mb-3 mt-10 text-lg font-semibold text-slate-900">{children}</h2>;
}

export function EmptyList({ children }: { children: ReactNode }) {
  return <Card className="px-5 py-6 text-slate-700">{children}</Card>;
}

// ---------------------------------------------------------------- services
