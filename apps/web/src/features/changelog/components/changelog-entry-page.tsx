import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, ArrowRight, BookOpen, ChevronLeft, Printer, Share2 } from 'lucide-react';
import { changelogMessages as m } from '@hp/contract';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { paths } from '../../../config/paths.ts';
import { useChangelog, useChangelogEntry } from '../api/changelog.ts';
import { ChangelogTypeBadge, formatReleaseDate, HighlightBadge, VersionBadge } from './changelog-badges.tsx';
import { ChangeList } from './change-list.tsx';

/** `/Changelog-details` without an id: the newest entry (the spec's default). */
export function NewestChangelogEntry() {
  const list = useChangelog();
  if (list.isPending) return <Spinner label="Lade Changelog …" />;
  const newest = list.data?.entries[0];
  return newest ? <Navigate to={paths.changelogEntry(newest.id)} replace /> : <NotFound />;
}

function NotFound() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6">
      <PageMeta title={m.notFoundTitle} />
      <h1 className="text-3xl font-bold text-slate-900">{m.notFoundTitle}</h1>
      <p className="mt-3 text-slate-700">{m.notFoundText}</p>
      <ButtonLink to={paths.changelog} className="mt-8">Alle Änderungen</ButtonLink>
    </div>
  );
}

async function share(title: string) {
  const url = window.location.href;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url });
      return;
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast.success(m.linkCopied);
  } catch {
    toast.error(m.copyFailed);
  }
}

/** Spec "Changelog detail"; an unknown id shows "Eintrag nicht gefunden" (not the newest entry). */
export default function ChangelogEntryPage() {
  const { id = '' } = useParams();
  const entry = useChangelogEntry(id);
  // Server-rendered (decision 016): print and share work once the page has hydrated.
  const hydrated = useHydrated();
  if (entry.isPending) return <Spinner label="Lade Eintrag …" />;
  if (entry.isError) {
    const missing = entry.error instanceof ApiRequestError && (entry.error.status === 404 || entry.error.status === 400);
    return missing ? <NotFound /> : <div className="mx-auto max-w-4xl px-4 py-8"><Alert tone="error">{m.loadFailed}. {entry.error.message}</Alert></div>;
  }
  const e = entry.data;
  const announcement = e.type === 'announcement';
  return (
    <article className="changelog-entry mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6">
      <PageMeta title={e.version ? `${e.version}: ${e.title}` : e.title} description={e.description.slice(0, 150)} />
      <nav aria-label="Changelog-Navigation" className="print:hidden">
        <Link to={paths.changelog} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline"><ChevronLeft className="size-4" aria-hidden="true" /> Zurück zur Übersicht</Link>
      </nav>
      <header className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <VersionBadge version={e.version} />
          <ChangelogTypeBadge type={e.type} />
          <HighlightBadge highlight={e.highlight} />
          <time dateTime={e.releaseDate}>{formatReleaseDate(e.releaseDate)}</time>
        </div>
        <h1 className="break-words text-3xl font-bold text-slate-900">{e.title}</h1>
        <p className="whitespace-pre-wrap break-words text-lg text-slate-700">{e.description}</p>
        <div className="flex flex-wrap gap-2 print:hidden">
          <Button variant="outline" size="sm" disabled={!hydrated} onClick={() => window.print()}><Printer className="size-4" aria-hidden="true" /> Drucken</Button>
          <Button variant="outline" size="sm" disabled={!hydrated} onClick={() => void share(e.title)}><Share2 className="size-4" aria-hidden="true" /> Teilen</Button>
        </div>
      </header>
      <section aria-labelledby="changes-heading" className="flex flex-col gap-3">
        <h2 id="changes-heading" className="text-xl font-semibold text-slate-900">Änderungen im Detail</h2>
        <Card className="p-5"><ChangeList changes={e.changes} /></Card>
      </section>
      {!announcement && (
        <section aria-labelledby="docs-heading" className="flex flex-col gap-2 print:hidden">
          <h2 id="docs-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><BookOpen className="size-5" aria-hidden="true" /> Dokumentation</h2>
          <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
            <li><a href="/changelog.atom" className="text-brand-700 underline">Release Notes (Atom-Feed)</a></li>
            <li><Link to={paths.faq} className="text-brand-700 underline">Häufige Fragen</Link></li>
            <li><a href="/api/docs" className="text-brand-700 underline">API-Dokumentation</a></li>
          </ul>
        </section>
      )}
      <nav aria-label="Weitere Updates" className="flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4 print:hidden">
        {e.olderId
          ? <ButtonLink to={paths.changelogEntry(e.olderId)} variant="outline"><ArrowLeft className="size-4" aria-hidden="true" /> Älteres Update</ButtonLink>
          : <span />}
        <ButtonLink to={paths.changelog} variant="outline">Alle Änderungen</ButtonLink>
        {e.newerId
          ? <ButtonLink to={paths.changelogEntry(e.newerId)} variant="outline">Neueres Update <ArrowRight className="size-4" aria-hidden="true" /></ButtonLink>
          : <span />}
      </nav>
    </article>
  );
}
