import { infrastructureMessages } from '@hp/contract';
import type { ReactNode } from 'react';
import { PageMeta } from '../../../components/page-meta.tsx';

/** Heading block shared by the three administration pages (one h1 each). */
export function AdminPageHeader({ title, description, actions, children }: { title: string; description: string; actions?: ReactNode; children?: ReactNode }) {
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

export const PAGE_SIZE = 25;

/** The trash-icon button of the staff tables. */
export const iconDeleteClass = 'inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent';

/** The server's German message, or the generic save failure. */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : infrastructureMessages.saveFailed);
