import type { ReactNode } from 'react';
import { PageMeta } from '../page-meta.tsx';

/** Heading block of a list page (one h1), with the page's actions on the right. */
export function PageHeader({ title, description, actions, children }: { title: string; description: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <>
      <PageMeta title={title} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          <p className="mt-1 text-slate-700">{description}</p>
          {children}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
    </>
  );
}
