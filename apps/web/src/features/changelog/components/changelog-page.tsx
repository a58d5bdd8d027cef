import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Plus, Rss } from 'lucide-react';
import { CHANGELOG_PREVIEW_CHANGES, changelogMessages as m, type ChangelogEntry } from '@hp/contract';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { isStaff, useSession } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { useChangelog } from '../api/changelog.ts';
import { ChangelogTypeBadge, formatReleaseDate, HighlightBadge, VersionBadge } from './changelog-badges.tsx';
import { ChangeList } from './change-list.tsx';

/** Spec "Changelog" list: cards with up to 3 changes, a modal with all, "Neuer Eintrag" for staff. */
export default function ChangelogPage() {
  const { claims } = useSession();
  const staff = isStaff(claims?.role);
  const changelog = useChangelog();
  // Server-rendered (decision 016): the buttons work once the page has hydrated.
  const hydrated = useHydrated();
  const [open, setOpen] = useState<ChangelogEntry | null>(null);
  const entries = changelog.data?.entries ?? [];

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:px-6">
      <PageMeta title="Changelog" description="Neue Funktionen, Verbesserungen und Fehlerbehebungen im Überblick." />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold text-slate-900">Changelog</h1>
          <p className="mt-1 text-slate-700">Neue Funktionen, Verbesserungen und Fehlerbehebungen.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href="/changelog.atom" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline"><Rss className="size-4" aria-hidden="true" /> Atom-Feed</a>
          {staff && <ButtonLink to={paths.changelogCreate}><Plus className="size-4" aria-hidden="true" /> Neuer Eintrag</ButtonLink>}
        </div>
      </div>
      {changelog.isPending && <Spinner label="Lade Changelog …" />}
      {changelog.isError && <Alert tone="error">{m.loadFailed}. {changelog.error.message}</Alert>}
      {changelog.isSuccess && entries.length === 0 && <p className="py-10 text-center text-slate-600">{m.empty}</p>}
      <ol className="flex flex-col gap-4" aria-label="Changelog-Einträge">
        {entries.map((entry) => (
          <li key={entry.id}>
            <Card className="flex flex-col gap-3 p-5">
              <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <VersionBadge version={entry.version} />
                <ChangelogTypeBadge type={entry.type} />
                <HighlightBadge highlight={entry.highlight} />
                <time dateTime={entry.releaseDate}>{formatReleaseDate(entry.releaseDate)}</time>
              </div>
              <h2 className="break-words text-xl font-semibold text-slate-900">
                <Link to={paths.changelogEntry(entry.id)} className="hover:underline">{entry.title}</Link>
              </h2>
              <p className="whitespace-pre-wrap break-words text-slate-700">{entry.description}</p>
              <ChangeList changes={entry.changes.slice(0, CHANGELOG_PREVIEW_CHANGES)} compact />
              <div className="flex flex-wrap items-center gap-3">
                {entry.changes.length > CHANGELOG_PREVIEW_CHANGES && (
                  <button type="button" className="text-sm font-medium text-brand-700 underline disabled:no-underline disabled:opacity-60" disabled={!hydrated} onClick={() => setOpen(entry)}>Alle {entry.changes.length} Änderungen anzeigen</button>
                )}
                <Button variant="outline" size="sm" disabled={!hydrated} onClick={() => setOpen(entry)} aria-label={`Details anzeigen: ${entry.title}`}>Details anzeigen</Button>
              </div>
            </Card>
          </li>
        ))}
      </ol>
      <EntryModal entry={open} staff={staff} onClose={() => setOpen(null)} />
    </div>
  );
}

function EntryModal({ entry, staff, onClose }: { entry: ChangelogEntry | null; staff: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Modal open={entry !== null} onOpenChange={(next) => !next && onClose()} title={entry?.title ?? ''} description={entry ? `${entry.version ? `${entry.version} · ` : ''}${formatReleaseDate(entry.releaseDate)}` : undefined}>
      {entry && (
        <div className="flex flex-col gap-4">
          <p className="whitespace-pre-wrap break-words text-slate-700">{entry.description}</p>
          <ChangeList changes={entry.changes} />
          <div className="flex flex-wrap justify-end gap-2">
            <ButtonLink to={paths.changelogEntry(entry.id)} variant="outline">Zur Detailseite</ButtonLink>
            {staff && <Button variant="outline" onClick={() => void navigate(paths.changelogEdit(entry.id))}>Bearbeiten</Button>}
            <Button onClick={onClose}>Schließen</Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
