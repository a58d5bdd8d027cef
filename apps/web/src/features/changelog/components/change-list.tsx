import type { ChangelogChange } from '@hp/contract';
import { cn } from '../../../lib/cn.ts';
import { ChangelogTypeBadge } from './changelog-badges.tsx';

/** The changes of an entry, each with its type. */
export function ChangeList({ changes, compact = false }: { changes: ChangelogChange[]; compact?: boolean }) {
  return (
    <ul className={cn('flex flex-col', compact ? 'gap-2' : 'gap-3')} aria-label="Änderungen">
      {changes.map((c) => (
        <li key={c.id} className="flex flex-col gap-1 border-l-2 border-slate-200 pl-3">
          <span className="flex flex-wrap items-center gap-2">
            <span className="break-words font-medium text-slate-900">{c.title}</span>
            <ChangelogTypeBadge type={c.type} />
          </span>
          <span className="whitespace-pre-wrap break-words text-sm text-slate-700">{c.description}</span>
        </li>
      ))}
    </ul>
  );
}
