import type { ComponentType, SVGProps } from 'react';
import { ArrowRight, Monitor, Network, Smartphone } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { FeatureCard } from '../../components/marketing/feature-card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct } from '../../config/products.ts';
import { AvailabilityBadge } from '../../components/marketing/availability-badge.tsx';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const accessMethods: { title: string; icon: Icon; text: string }[] = [
  { title: 'Im Browser', icon: Monitor, text: 'Dateien hochladen, ansehen und verwalten – von jedem Rechner aus, ohne Installation.' },
  { title: 'Per App', icon: Smartphone, text: 'Mit den Desktop- und Mobil-Apps haben Sie Ihre Daten immer dabei.' },
  { title: 'Über Samba', icon: Network, text: 'Binden Sie den Speicher als Netzlaufwerk ein – ideal für Büros und Teams.' },
];

const product = findProduct('cloud-storage');
const features = product.features;

export function CloudStoragePage() {
  return (
    <>
      <PageMeta title="Cloud-Speicher" description="Sicherer Cloud-Speicher mit bis zu 10 TB – Zugriff per Browser, App oder Samba, mit Synchronisation, mobilen Apps und Freigabelinks." />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.25fr_1fr]">
          <div>
            <p className="flex flex-wrap items-center gap-3 text-sm font-semibold uppercase tracking-wide text-brand-200">
              {product.name} <AvailabilityBadge availability={product.availability} className="normal-case tracking-normal" />
            </p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Ihre Daten. Sicher in der Cloud.</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
              Speichern, synchronisieren und teilen Sie Ihre Dateien mit bis zu 10 TB Speicherplatz – erreichbar im Browser, per App oder als Netzlaufwerk über Samba.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={paths.shop.cloudStorage} size="lg">
                Cloud-Speicher bestellen <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
            </div>
          </div>
          <div className="rounded-2xl border border-white/10 bg-white/5 p-8 text-center backdrop-blur">
            <p className="text-6xl font-bold text-white">10&nbsp;TB</p>
            <p className="mt-2 text-slate-300">maximaler Speicherplatz pro Konto</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="zugriff-title" className="bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Zugriff</p>
            <h2 id="zugriff-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Von überall auf Ihre Dateien zugreifen</h2>
          </div>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {accessMethods.map((item) => (
              <li key={item.title}>
                <FeatureCard {...item} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cloud-funktionen-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Funktionen</p>
            <h2 id="cloud-funktionen-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Mehr als nur Speicherplatz</h2>
          </div>
          <ul className="mt-12 grid gap-x-8 gap-y-10 sm:grid-cols-2">
            {features.map(({ title, icon: FeatureIcon, text }) => (
              <li key={title} className="flex gap-4">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white">
                  <FeatureIcon className="size-5" aria-hidden="true" />
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

      <section aria-labelledby="cs-cta-title" className="bg-brand-700">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 id="cs-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Platz für alles, was Ihnen wichtig ist</h2>
            <p className="mt-2 text-lg text-brand-100">Mit 30 Tagen Geld-zurück-Garantie.</p>
          </div>
          <ButtonLink to={paths.shop.cloudStorage} variant="outline" size="lg">Zum Cloud-Speicher-Shop</ButtonLink>
        </div>
      </section>
    </>
  );
}
