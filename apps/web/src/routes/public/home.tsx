import { useEffect, useState, type ComponentType, type SVGProps } from 'react';
import { Link } from 'react-router';
import {
  ArrowRight, Check, Construction, Gauge, HardDrive, Headset, Mail, Network, Pause, Play, ShieldCheck, Undo2,
} from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink, buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { paths } from '../../config/paths.ts';
import { productNames, products, upcomingProducts } from '../../config/products.ts';
import { AvailabilityBadge } from '../../components/marketing/availability-badge.tsx';

export const HERO_ROTATION_MS = 6000;
// Only what can be ordered today (the catalogue in config/products.ts).
const HERO_PHRASES = ['Root Server', 'skalierbares Webhosting', 'Domains mit Transfersperre', 'Cloud-Speicher mit Nextcloud', 'Virtual Data Center'] as const;

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const claims: { title: string; icon: Icon; text: string }[] = [
  { title: '24/7 Ticket-Support', icon: Headset, text: 'Unser Support-Team nimmt Ihre Anfrage rund um die Uhr über das Ticket-System entgegen.' },
  { title: '99,9\u00a0% Uptime', icon: Gauge, text: 'Redundante Infrastruktur und Monitoring sorgen dafür, dass Ihre Dienste erreichbar bleiben.' },
  { title: 'DDoS-Schutz', icon: ShieldCheck, text: 'Angriffe werden automatisch erkannt und gefiltert, bevor sie Ihren Server erreichen.' },
  { title: 'NVMe-Speicher', icon: HardDrive, text: 'Schnelle NVMe-SSDs für kurze Ladezeiten und performante Datenbanken.' },
  { title: '30 Tage Geld-zurück-Garantie', icon: Undo2, text: 'Testen Sie unsere Produkte ohne Risiko – sind Sie nicht zufrieden, erhalten Sie Ihr Geld zurück.' },
  { title: '1\u00a0Gbit/s Netzwerk', icon: Network, text: 'Jeder Server ist mit bis zu 1 Gbit/s an unser Netzwerk angebunden.' },
];

const heroStats = [
  { value: '99,9\u00a0%', label: 'Uptime' },
  { value: '24/7', label: 'Ticket-Support' },
  { value: '1\u00a0Gbit/s', label: 'Netzwerkanbindung' },
  { value: 'NVMe', label: 'SSD-Speicher' },
];

const managedItems = [
  'Einrichtung und Konfiguration Ihres Servers',
  'Regelmäßige Sicherheitsupdates und Patches',
  'Überwachung von Diensten und Ressourcen',
  'Persönliche Hilfe über unser Ticket-System',
];

export function HomePage() {
  return (
    <>
      <PageMeta title="Musterhost" description="Root Server, Webhosting, Domains, Cloud-Speicher und Virtual Data Center – mit NVMe-Speicher, DDoS-Schutz und 24/7 Ticket-Support." />
      <NoticeBanner />
      <Hero />
      <Services />
      <Claims />
      <ManagedServer />
      <CallToAction />
    </>
  );
}

function NoticeBanner() {
  if (upcomingProducts.length === 0) return null;
  return (
    <div className="border-b border-amber-200 bg-amber-50">
      <p className="mx-auto flex max-w-7xl items-start gap-3 px-4 py-3 text-sm text-amber-900 sm:items-center sm:px-6">
        <Construction className="mt-0.5 size-5 shrink-0 sm:mt-0" aria-hidden="true" />
        <span>
          <strong className="font-semibold">Hinweis:</strong> Unser Unternehmen befindet sich noch im Aufbau. {productNames(upcomingProducts)} {upcomingProducts.length === 1 ? 'ist' : 'sind'} bald verfügbar.
        </span>
      </p>
    </div>
  );
}

function Hero() {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused) return;
    const id = window.setInterval(() => setIndex((i) => (i + 1) % HERO_PHRASES.length), HERO_ROTATION_MS);
    return () => window.clearInterval(id);
  }, [paused]);

  return (
    <section className="relative overflow-hidden bg-slate-950 text-white">
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.25fr_1fr]">
        <div>
          <p className="mb-4 inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-sm text-slate-200">
            <ShieldCheck className="size-4 text-brand-200" aria-hidden="true" />
            Hosting für Unternehmen und Privatkunden
          </p>
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
            <span className="block">Leistungsstark und zuverlässig:</span>
            {/* All phrases share one grid cell, so the box is as tall as the longest phrase and never shifts layout. */}
            <span className="mt-2 grid text-brand-200" aria-hidden="true">
              {HERO_PHRASES.map((phrase, i) => (
                <span
                  key={phrase}
                  data-active={i === index || undefined}
                  className={cn(
                    'col-start-1 row-start-1 transition-[opacity,translate,visibility] duration-700 motion-reduce:transition-none',
                    i === index ? 'translate-y-0 opacity-100' : 'invisible translate-y-2 opacity-0',
                  )}
                >
                  {phrase}
                </span>
              ))}
            </span>
            <span className="sr-only">Root Server, skalierbares Webhosting, Domains mit Transfersperre und Cloud-Speicher mit Nextcloud</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
            Von der ersten Website bis zum eigenen virtuellen Rechenzentrum: Wir stellen Ihnen schnelle, sichere Infrastruktur bereit – mit NVMe-Speicher, DDoS-Schutz und einem Support, der Ihnen wirklich weiterhilft.
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <ButtonLink to={paths.shop.kvmServer} size="lg">
              Root Server konfigurieren <ArrowRight className="size-4" aria-hidden="true" />
            </ButtonLink>
            <a href="#leistungen" className="inline-flex h-12 items-center justify-center rounded-lg border border-white/30 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
              Alle Leistungen ansehen
            </a>
          </div>
          <button
            type="button"
            onClick={() => setPaused((p) => !p)}
            aria-pressed={paused}
            className="mt-6 inline-flex min-h-9 items-center gap-2 rounded-md px-2 text-sm text-slate-300 hover:bg-white/10 hover:text-white"
          >
            {paused ? <Play className="size-4" aria-hidden="true" /> : <Pause className="size-4" aria-hidden="true" />}
            {paused ? 'Textwechsel fortsetzen' : 'Textwechsel anhalten'}
          </button>
        </div>
        <div className="rounded-2xl border border-white/10 bg-white/5 p-6 shadow-2xl backdrop-blur sm:p-8">
          <dl className="grid grid-cols-2 gap-4">
            {heroStats.map((stat) => (
              <div key={stat.label} className="rounded-xl bg-white/5 p-4 ring-1 ring-white/10">
                <dt className="text-sm text-slate-300">{stat.label}</dt>
                <dd className="mt-1 text-2xl font-bold text-white sm:text-3xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-6 flex items-center gap-2 text-sm text-slate-200">
            <Undo2 className="size-4 shrink-0 text-brand-200" aria-hidden="true" />
            30 Tage Geld-zurück-Garantie auf alle Produkte
          </p>
        </div>
      </div>
    </section>
  );
}

function Services() {
  return (
    <section id="leistungen" aria-labelledby="leistungen-title" className="scroll-mt-20 bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Unsere Leistungen</p>
          <h2 id="leistungen-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Alles, was Ihr Projekt online braucht</h2>
          <p className="mt-4 text-lg text-slate-600">Wählen Sie das passende Produkt – wir kümmern uns um eine stabile und sichere Grundlage.</p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <li key={product.id}>
              <Card className="flex h-full flex-col p-6 transition-shadow hover:shadow-md" data-product={product.id}>
                <div className="flex items-start justify-between gap-3">
                  <span className="inline-flex size-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <product.icon className="size-6" aria-hidden="true" />
                  </span>
                  <AvailabilityBadge availability={product.availability} />
                </div>
                <h3 className="mt-5 text-lg font-semibold text-slate-900">{product.name}</h3>
                <p className="mt-2 text-slate-600">{product.pitch}</p>
                <ul className="mt-4 flex-1 space-y-1.5 text-sm text-slate-700" aria-label={`Leistungen: ${product.name}`}>
                  {product.features.map((feature) => (
                    <li key={feature.title} className="flex gap-2">
                      <Check className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
                      {feature.title}
                    </li>
                  ))}
                </ul>
                <Link to={product.path} className="mt-5 inline-flex items-center gap-1 self-start py-1 text-sm font-semibold text-brand-700 hover:text-brand-900">
                  Mehr Details<span className="sr-only"> zu {product.name}</span>
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              </Card>
            </li>
          ))}
          <li>
            <div className="flex h-full flex-col rounded-xl bg-brand-800 p-6 text-white shadow-sm">
              <span className="inline-flex size-12 items-center justify-center rounded-lg bg-white/10">
                <Mail className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold">Individuelle Anforderungen?</h3>
              <p className="mt-2 flex-1 text-brand-100">Sie planen ein größeres Projekt oder brauchen eine maßgeschneiderte Lösung? Sprechen Sie uns an – wir beraten Sie gern.</p>
              <a href={`mailto:${__COMPANY__.email}`} className={buttonClass('outline', 'md', 'mt-5 self-start')}>
                Kontakt aufnehmen
              </a>
            </div>
          </li>
        </ul>
      </div>
    </section>
  );
}

function Claims() {
  return (
    <section aria-labelledby="vorteile-title" className="bg-white py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Ihre Vorteile</p>
          <h2 id="vorteile-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Darauf können Sie sich verlassen</h2>
        </div>
        <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {claims.map(({ title, icon: ClaimIcon, text }) => (
            <li key={title} className="flex gap-4">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white">
                <ClaimIcon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-slate-600">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function ManagedServer() {
  return (
    <section aria-labelledby="managed-title" className="bg-slate-50 py-16 sm:py-24">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Managed Server</p>
          <h2 id="managed-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Wir kümmern uns um Ihren Server – Sie um Ihr Geschäft</h2>
          <p className="mt-4 text-lg text-slate-600">
            Keine Zeit für Updates, Monitoring und Konfiguration? Mit unserem Managed-Server-Service übernehmen unsere Techniker den Betrieb Ihres Servers, damit Sie sich auf Ihre Anwendungen konzentrieren können.
          </p>
          <ButtonLink to={paths.faq} size="lg" className="mt-8">
            Mehr erfahren<span className="sr-only"> über Managed Server</span>
            <ArrowRight className="size-4" aria-hidden="true" />
          </ButtonLink>
        </div>
        <Card className="p-6 sm:p-8">
          <h3 className="text-lg font-semibold text-slate-900">Im Managed-Service enthalten</h3>
          <ul className="mt-6 space-y-4">
            {managedItems.map((item) => (
              <li key={item} className="flex gap-3 text-slate-700">
                <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800">
                  <Check className="size-4" aria-hidden="true" />
                </span>
                {item}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </section>
  );
}

function CallToAction() {
  return (
    <section aria-labelledby="cta-title" className="bg-brand-700">
      <div className="mx-auto flex max-w-7xl flex-col items-start gap-8 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
        <div>
          <h2 id="cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Bereit für Ihren eigenen Root Server?</h2>
          <p className="mt-2 text-lg text-brand-100">Jetzt konfigurieren – mit 30 Tagen Geld-zurück-Garantie.</p>
        </div>
        <div className="flex flex-wrap gap-3">
          <ButtonLink to={paths.shop.kvmServer} variant="outline" size="lg">Root Server konfigurieren</ButtonLink>
          <Link to={paths.register} className="inline-flex h-12 items-center justify-center rounded-lg border border-white/40 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
            Kundenkonto erstellen
          </Link>
        </div>
      </div>
    </section>
  );
}
