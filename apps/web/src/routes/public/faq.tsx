import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ChevronDown, Mail, MessageCircleQuestionMark } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { paths } from '../../config/paths.ts';

const company = __COMPANY__;

interface FaqEntry { id: string; question: string; answer: string }

const sections: { id: string; title: string; entries: FaqEntry[] }[] = [
  {
    id: 'allgemein',
    title: 'Allgemeine Fragen',
    entries: [
      {
        id: 'anbieter',
        question: `Was ist ${company.name}?`,
        answer: `${company.name} ist ein Hosting-Anbieter für Unternehmen und Privatkunden. Wir bieten Root Server, Webhosting, Cloud-Speicher, Virtual Data Center und Domains an – mit NVMe-Speicher, DDoS-Schutz und 24/7 Ticket-Support. Unser Unternehmen befindet sich noch im Aufbau, daher sind einige Produkte derzeit noch nicht bestellbar.`,
      },
      {
        id: 'kontakt',
        question: 'Wie kann ich Kontakt mit Ihnen aufnehmen?',
        answer: `Sie erreichen uns per E-Mail an ${company.email} oder über das Ticket-System in Ihrem Kundenbereich. Anliegen zu bestehenden Servern oder Verträgen bearbeiten wir am schnellsten über ein Ticket.`,
      },
      {
        id: 'zahlung',
        question: 'Welche Zahlungsmethoden werden akzeptiert?',
        answer: 'Sie können bequem per Kreditkarte, PayPal, Überweisung oder SEPA-Lastschrift bezahlen.',
      },
      {
        id: 'servicezeiten',
        question: 'Wann ist der Support erreichbar?',
        answer: 'Unsere Servicezeiten sind Montag bis Sonntag von 8 bis 23 Uhr (MEZ). Tickets können Sie rund um die Uhr erstellen.',
      },
      {
        id: 'hilfe',
        question: 'Wie erhalte ich Hilfe bei Problemen?',
        answer: 'Erstellen Sie in Ihrem Kundenbereich ein Ticket und beschreiben Sie Ihr Anliegen möglichst genau – zum Beispiel den betroffenen Server, die Fehlermeldung und was Sie bereits versucht haben. Unser Support-Team meldet sich dann schnellstmöglich bei Ihnen.',
      },
    ],
  },
  {
    id: 'server',
    title: 'Server & Hosting',
    entries: [
      {
        id: 'root-server',
        question: 'Was ist ein Root Server?',
        answer: 'Ein Root Server ist bei uns eine virtuelle Maschine, die auf einem physischen Host läuft. Sie erhalten fest zugewiesene Ressourcen – CPU-Kerne, Arbeitsspeicher und NVMe-Speicher – und verwalten das System so, als wäre es Ihr eigener Server.',
      },
      {
        id: 'betriebssysteme',
        question: 'Welche Betriebssysteme stehen zur Auswahl?',
        answer: 'Sie können zwischen Ubuntu Server, Debian, Windows Server 2025 und Windows Server 2022 wählen. Für Windows Server fällt ein monatlicher Lizenzaufschlag an.',
      },
      {
        id: 'root-zugriff',
        question: 'Habe ich vollen Root-Zugriff?',
        answer: 'Ja, bei Root Servern haben Sie vollen Root- bzw. Administratorzugriff. Beim Webhosting ist der Zugriff eingeschränkt, da sich dort mehrere Kunden eine von uns verwaltete Umgebung teilen.',
      },
      {
        id: 'kuendigung',
        question: 'Wie kann ich meinen Server kündigen?',
        answer: 'Eine Kündigung ist nicht nötig: Server werden für die gewählte Laufzeit im Voraus bezahlt, es gibt kein Abonnement. Wenn Sie Ihren Server nicht verlängern, läuft er zum Ende der Laufzeit automatisch aus.',
      },
      {
        id: 'zugriff-teilen',
        question: 'Kann ich den Zugriff auf meinen Server mit anderen teilen?',
        answer: 'Ja. Im Server-Dashboard können Sie anderen Kontoinhabern Zugriff auf Ihren Server gewähren, etwa Kolleginnen und Kollegen oder Ihrer Agentur.',
      },
    ],
  },
];

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
