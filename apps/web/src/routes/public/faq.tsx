import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ChevronDown, Mail, MessageCircleQuestionMark } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { paths } from '../../config/paths.ts';
import { faqSections as sections } from '../../config/help-articles.ts';

const company = __COMPANY__;

export function FaqPage() {
  return (
    <>
      <PageMeta title="FAQ" description="Antworten auf häufige Fragen zu Kontakt, Zahlung, Servicezeiten, Root Servern, Betriebssystemen, Root-Zugriff und Kündigung." />

      <section className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-3xl px-4 py-14 text-center sm:px-6 sm:py-20">
          <span className="inline-flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
            <MessageCircleQuestionMark className="size-7" aria-hidden="true" />
          </span>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">Häufig gestellte Fragen</h1>
          <p className="mt-4 text-lg text-slate-600">Hier finden Sie Antworten auf die wichtigsten Fragen zu unseren Produkten, zur Bezahlung und zum Support.</p>
        </div>
      </section>

      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        {/* One accordion for both sections, so only a single question is open on the whole page. */}
        <FaqAccordion />

        <aside aria-labelledby="faq-kontakt" className="mt-16 rounded-2xl bg-brand-800 p-8 text-center text-white sm:p-10">
          <h2 id="faq-kontakt" className="text-2xl font-bold tracking-tight">Noch Fragen?</h2>
          <p className="mx-auto mt-3 max-w-xl text-brand-100">
            Sie haben keine passende Antwort gefunden? Schreiben Sie uns – wir helfen Ihnen gern weiter. Servicezeiten: Mo–So, 8–23 Uhr (MEZ).
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <a href={`mailto:${company.email}`} className={buttonClass('outline', 'lg')}>
              <Mail className="size-5" aria-hidden="true" /> Kontakt aufnehmen
            </a>
            <Link to={paths.status} className="inline-flex h-12 items-center justify-center rounded-lg border border-white/40 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
              Systemstatus ansehen
            </Link>
          </div>
        </aside>
      </div>
    </>
  );
}

// A small hand-rolled disclosure accordion: Radix' accordion costs ~9 kB gzip in the main chunk, and
// rendering closed answers with `hidden` keeps them in the prerendered HTML for search engines.
function FaqAccordion() {
  const baseId = useId();
  const [openId, setOpenId] = useState<string | null>(null);
  const hydrated = useHydrated();
  return (
    <div className="space-y-12">
      {sections.map((section) => (
        <section key={section.id} aria-labelledby={`faq-${section.id}`}>
          <h2 id={`faq-${section.id}`} className="text-2xl font-bold tracking-tight text-slate-900">{section.title}</h2>
          <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
            {section.entries.map((entry) => {
              const isOpen = openId === entry.id;
              const panelId = `${baseId}-${entry.id}`;
              return (
                <div key={entry.id} data-state={isOpen ? 'open' : 'closed'}>
                  <h3 className="text-base">
                    <button
                      type="button"
                      id={`${panelId}-trigger`}
                      aria-expanded={isOpen}
                      aria-controls={panelId}
                      disabled={!hydrated}
                      onClick={() => setOpenId(isOpen ? null : entry.id)}
                      className="flex w-full items-center justify-between gap-4 rounded-xl px-5 py-4 text-left font-semibold text-slate-900 hover:text-brand-700 aria-expanded:text-brand-700"
                    >
                      {entry.question}
                      <ChevronDown className={cn('size-5 shrink-0 transition-transform duration-200', isOpen ? 'rotate-180 text-brand-700' : 'text-slate-500')} aria-hidden="true" />
                    </button>
                  </h3>
                  <div id={panelId} role="region" aria-labelledby={`${panelId}-trigger`} hidden={!isOpen} className="px-5 pb-5 leading-7 text-slate-700">
                    {entry.answer}
                  </div>
                </div>
              );
            })}
          </div>
        </section>
      ))}
    </div>
  );
}
