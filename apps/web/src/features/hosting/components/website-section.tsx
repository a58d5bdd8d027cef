import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';

/** A block of the Website tab: a labelled region with its heading and optional actions. */
export function Section({ id, title, icon, actions, children }: { id: string; title: string; icon: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-6" role="region" aria-labelledby={id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">{icon}{title}</h2>
        {actions}
      </div>
      {children}
    </Card>
  );
}

export function Info({ label, value }: { label: string; value: ReactNode }) {
  return <div className="min-w-0"><dt className="text-slate-600">{label}</dt><dd className="break-words font-medium text-slate-900">{value}</dd></div>;
}

/** Where a server folder is for the FTP user, whose login starts in `ftpDirectory` (the site folder). */
export function ftpPathOf(folder: string, ftpDirectory: string): string | null {
  const base = ftpDirectory.replace(/\/+$/, '');
  if (folder === base) return '/';
  return folder.startsWith(`${base}/`) ? folder.slice(base.length) : null;
}
