import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { BookOpen, Mail, Search, SearchX } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { PageIntro } from '../../components/marketing/page-intro.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/field.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { paths } from '../../config/paths.ts';
import { docTopics, filterTopics } from '../../config/help-articles.ts';

export function DocsPage() {
  const inputId = useId();
  const [query, setQuery] = useState('');
  // Filtering needs the page's script: until it runs, the field would take input that nothing reads.
  const hydrated = useHydrated();
  const topics = useMemo(() => filterTopics(docTopics, query), [query]);
  const count = topics.reduce((n, t) => n + t.articles.length, 0);
  const searching = query.trim() !== '';

  return (
    <>
      <PageMeta title="Dokumentation" description="Hilfe zum Kundenportal: erste Schritte mit Ihrem Server, SSH-Schlüssel, Backups, DNS für Webhosting und Domains sowie häufige Fragen." />
      <PageIntro icon={BookOpen} title="Dokumentation">
        <p>Anleitungen für das Kundenportal und Antworten auf häufige Fragen – von den ersten Schritten mit Ihrem Server bis zum DNS Ihrer Domain.</p>
      </PageIntro>

      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <form role="search" aria-label="Dokumentation" onSubmit={(e) => e.preventDefault()} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">Dokumentation durchsuchen</label>
          <div className="relative mt-2">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500" aria-hidden="true" />
            <input
              id={inputId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="z. B. SSH-Schlüssel, Backup oder Nameserver"
              autoComplete="off"
              disabled={!hydrated}
              className={`${inputClass} pl-10`}
            />
          </div>
          <p aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
            {searching ? (count > 0 ? `${count} Artikel gefunden` : '') : `${count} Artikel`}
          </p>
        </form>

        {!searching && (
          <nav aria-labelledby="doc-inhalt" className="mt-10">
            <h2 id="doc-inhalt" className="text-sm font-semibold uppercase tracking-wide text-slate-600">Inhalt</h2>
            <ul className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
              {topics.map((topic) => (
                <li key={topic.id}><a href={`#${topic.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">{topic.title}</a></li>
              ))}
            </ul>
          </nav>
        )}

        {count === 0 ? (
          <div className="mt-10 flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-slate-50 px-6 py-12 text-center">
            <SearchX className="size-8 text-slate-500" aria-hidden="true" />
            <p className="font-medium text-slate-900" role="status">Keine Treffer für „{query.trim()}“</p>
            <p className="text-sm text-slate-600">Versuchen Sie einen anderen Begriff oder schreiben Sie uns ein Ticket.</p>
            <button type="button" onClick={() => setQuery('')} className={buttonClass('outline', 'md', 'mt-2')}>Suche zurücksetzen</button>
          </div>
        ) : (
          <div className="mt-12 space-y-14">
            {topics.map((topic) => (
              <section key={topic.id} id={topic.id} aria-labelledby={`${topic.id}-titel`} className="scroll-mt-24">
                <h2 id={`${topic.id}-titel`} className="text-2xl font-bold tracking-tight text-slate-900">{topic.title}</h2>
                <div className="mt-6 space-y-6">
                  {topic.articles.map((article) => (
                    <article key={article.id} id={article.id} aria-labelledby={`${article.id}-titel`} className="scroll-mt-24 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
                      <h3 id={`${article.id}-titel`} className="text-lg font-semibold text-slate-900">
                        <a href={`#${article.id}`} className="hover:text-brand-700 hover:underline">{article.title}</a>
                      </h3>
                      {article.paragraphs.map((text) => <p key={text} className="mt-3 leading-7 text-slate-700">{text}</p>)}
                      {article.steps && (
                        <ol className="mt-4 list-decimal space-y-2 pl-6 leading-7 text-slate-700 marker:font-semibold marker:text-brand-700">
                          {article.steps.map((step) => <li key={step}>{step}</li>)}
                        </ol>
                      )}
                    </article>
                  ))}
                </div>
              </section>
            ))}
          </div>
        )}

        <aside aria-labelledby="doc-kontakt" className="mt-16 rounded-2xl bg-brand-800 p-8 text-center text-white sm:p-10">
          <h2 id="doc-kontakt" className="text-2xl font-bold tracking-tight">Nicht gefunden, was Sie suchen?</h2>
          <p className="mx-auto mt-3 max-w-xl text-brand-100">Im Kundenbereich erstellen Sie ein Ticket; ohne Konto erreichen Sie uns per E-Mail.</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to={paths.dashboard.support} className={buttonClass('outline', 'lg')}>Ticket erstellen</Link>
            <a href={`mailto:${__COMPANY__.email}`} className="inline-flex h-12 items-center justify-center gap-2 rounded-lg border border-white/40 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
              <Mail className="size-5" aria-hidden="true" /> E-Mail schreiben
            </a>
          </div>
        </aside>
      </div>
    </>
  );
}
