import type { ComponentType, SVGProps } from 'react';
import {
  ArrowRight, Check, Clock, CreditCard, FileText, Headset, Landmark, LifeBuoy, Network,
  Terminal,
} from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FeatureCard } from '../../components/marketing/feature-card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct } from '../../config/products.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const configLimits = [
  { value: '1–88', label: 'vCPU-Kerne' },
  { value: '2–512\u00a0GB', label: 'Arbeitsspeicher' },
  { value: '25–500\u00a0GB', label: 'NVMe-Speicher' },
  { value: '1–12', label: 'Monate Laufzeit' },
];

const highlights = findProduct('root-server').features;

const extras = [
  'Voller Root-Zugriff auf Ihr System',
  'Ubuntu Server, Debian oder Windows Server 2025/2022',
  'Verwaltung über das Server-Dashboard',
  'Zugriff mit anderen Kundenkonten teilen',
];

// Only what the checkout really takes (the spec listed PayPal, SEPA direct debit and crypto, which the
// payment integration does not offer): card payment in the shop, transfer on invoice by arrangement.
const paymentMethods: { title: string; icon: Icon; text: string }[] = [
  { title: 'Kreditkarte', icon: CreditCard, text: 'Im Shop bezahlen Sie sicher mit allen gängigen Kreditkarten; Ihr Server wird direkt danach eingerichtet.' },
  { title: 'Überweisung auf Rechnung', icon: Landmark, text: 'Für Firmenkunden auf Anfrage: Rechnung mit 15 Tagen Zahlungsziel.' },
  { title: 'Rechnung und E-Rechnung', icon: FileText, text: 'Jede Rechnung als PDF und XRechnung. Firmenkunden in der EU mit USt-IdNr. erhalten Nettopreise (Reverse Charge).' },
];

export function RootServerPage() {
  return (
    <>
      <PageMeta title="Root Server" description="Root Server mit vollem Root-Zugriff, NVMe-Speicher, DDoS-Schutz und 1 Gbit/s Netzwerk – frei konfigurierbar von 1 bis 88 vCPU-Kernen." />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.25fr_1fr]">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-200">Root Server</p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Root Server mit voller Kontrolle</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
              Stellen Sie sich Ihren Server genau so zusammen, wie Ihr Projekt es braucht: CPU, Arbeitsspeicher und NVMe-Speicher frei wählbar, DDoS-Schutz und 1 Gbit/s Netzwerkanbindung inklusive.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={paths.shop.rootServer} size="lg">
                Root Server konfigurieren <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
              <a href="#zahlung" className="inline-flex h-12 items-center justify-center rounded-lg border border-white/30 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
                Zahlungsarten ansehen
              </a>
            </div>
          </div>
          <div className="rounded-2xl border border-white/10 bg-white/5 p-6 backdrop-blur sm:p-8">
            <p className="font-semibold text-white">Frei konfigurierbar</p>
            <dl className="mt-4 grid grid-cols-2 gap-4">
              {configLimits.map((item) => (
                <div key={item.label} className="rounded-xl bg-white/5 p-4 ring-1 ring-white/10">
                  <dt className="text-sm text-slate-300">{item.label}</dt>
                  <dd className="mt-1 text-xl font-bold whitespace-nowrap text-white sm:text-2xl">{item.value}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-6 text-sm text-slate-200">Bis zu 15&nbsp;% Rabatt bei längerer Laufzeit: 5&nbsp;% ab 3&nbsp;Monaten, 10&nbsp;% ab 6&nbsp;Monaten, 15&nbsp;% ab 9&nbsp;Monaten.</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="hardware-title" className="bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Hardware</p>
            <h2 id="hardware-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Leistung ohne Kompromisse</h2>
            <p className="mt-4 text-lg text-slate-600">Ein Root Server ist eine virtuelle Maschine auf einem physischen Host – mit garantierten Ressourcen und vollem Zugriff.</p>
          </div>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {highlights.map((item) => (
              <li key={item.title}>
                <FeatureCard {...item} />
              </li>
            ))}
          </ul>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2">
            {extras.map((item) => (
              <li key={item} className="flex items-center gap-3 text-slate-700">
                <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
                  <Check className="size-4" aria-hidden="true" />
                </span>
                {item}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="netzwerk-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Netzwerk</p>
            <h2 id="netzwerk-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Schnell angebunden mit 1&nbsp;Gbit/s</h2>
            <p className="mt-4 text-lg text-slate-600">
              Jeder Root Server ist mit bis zu 1 Gbit/s an unser redundantes Netzwerk angebunden. So laden Ihre Anwendungen schnell – auch wenn viele Besucher gleichzeitig zugreifen.
            </p>
          </div>
          <div className="flex items-center gap-6 rounded-2xl bg-brand-50 p-8 ring-1 ring-brand-100">
            <span className="inline-flex size-16 shrink-0 items-center justify-center rounded-2xl bg-brand-600 text-white">
              <Network className="size-8" aria-hidden="true" />
            </span>
            <div>
              <p className="text-4xl font-bold text-brand-900">1&nbsp;Gbit/s</p>
              <p className="mt-1 text-slate-700">Netzwerkanbindung mit DDoS-Schutz und 99,9&nbsp;% Uptime</p>
            </div>
          </div>
        </div>
      </section>

      <section id="zahlung" aria-labelledby="zahlung-title" className="scroll-mt-20 bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Zahlungsarten</p>
            <h2 id="zahlung-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Bezahlen, wie es Ihnen passt</h2>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {paymentMethods.map(({ title, icon: PaymentIcon, text }) => (
              <li key={title}>
                <Card className="h-full p-6 text-center">
                  <PaymentIcon className="mx-auto size-8 text-brand-700" aria-hidden="true" />
                  <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{text}</p>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="support-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="grid gap-10 rounded-2xl bg-slate-900 p-8 text-white sm:p-12 lg:grid-cols-[1.5fr_1fr] lg:items-center">
            <div>
              <h2 id="support-title" className="text-3xl font-bold tracking-tight">Support, der Ihnen weiterhilft</h2>
              <p className="mt-4 text-lg text-slate-300">
                Bei Fragen zu Ihrem Server erreichen Sie unser Team jederzeit über das Ticket-System. Unsere Techniker kennen die Plattform und helfen Ihnen schnell und kompetent.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <ButtonLink to={paths.faq} variant="outline" size="lg">
                  <LifeBuoy className="size-4" aria-hidden="true" /> Häufige Fragen
                </ButtonLink>
                <a href={`mailto:${__COMPANY__.email}`} className="inline-flex h-12 items-center justify-center rounded-lg border border-white/30 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
                  E-Mail schreiben
                </a>
              </div>
            </div>
            <ul className="space-y-5">
              <li className="flex gap-4">
                <Headset className="size-6 shrink-0 text-brand-200" aria-hidden="true" />
                <div>
                  <h3 className="font-semibold">24/7 Ticket-Support</h3>
                  <p className="text-slate-300">Tickets werden rund um die Uhr angenommen.</p>
                </div>
              </li>
              <li className="flex gap-4">
                <Clock className="size-6 shrink-0 text-brand-200" aria-hidden="true" />
                <div>
                  <h3 className="font-semibold">Servicezeiten</h3>
                  <p className="text-slate-300">Montag bis Sonntag, 8–23 Uhr (MEZ)</p>
                </div>
              </li>
              <li className="flex gap-4">
                <Terminal className="size-6 shrink-0 text-brand-200" aria-hidden="true" />
                <div>
                  <h3 className="font-semibold">Technische Expertise</h3>
                  <p className="text-slate-300">Hilfe bei Einrichtung, Betriebssystem und Netzwerk.</p>
                </div>
              </li>
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="rs-cta-title" className="bg-brand-700">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 id="rs-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Ihr Root Server ist nur wenige Klicks entfernt</h2>
            <p className="mt-2 text-lg text-brand-100">Mit 30 Tagen Geld-zurück-Garantie.</p>
          </div>
          <ButtonLink to={paths.shop.rootServer} variant="outline" size="lg">Jetzt konfigurieren</ButtonLink>
        </div>
      </section>
    </>
  );
}
