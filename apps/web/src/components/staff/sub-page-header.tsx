import { Link } from 'react-router';
import { Plus } from 'lucide-react';
import { infrastructureMessages } from '@hp/contract';
import { Button } from '../ui/button.tsx';
import { PageHeader } from '../list-page/page-header.tsx';
import { paths } from '../../config/paths.ts';

/** The trash-icon button of the staff tables. */
export const iconDeleteClass = 'inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent';

/** The server's German message, or the generic save failure. */
export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : infrastructureMessages.saveFailed);

/** The header of a page under server management: its add button and the way back. */
/** `onAdd` absent: the viewer may not add (e.g. storage servers are the owner's). */
export function SubPageHeader({ title, description, addLabel, onAdd }: { title: string; description: string; addLabel: string; onAdd?: () => void }) {
  return (
    <PageHeader
      title={title}
      description={description}
      actions={onAdd ? <Button onClick={onAdd}><Plus className="size-4" aria-hidden="true" /> {addLabel}</Button> : undefined}
    >
      <p className="mt-2 text-sm"><Link to={paths.dashboard.staffServers} className="font-medium text-brand-700 hover:underline">Zurück zum Server-Management</Link></p>
    </PageHeader>
  );
}
