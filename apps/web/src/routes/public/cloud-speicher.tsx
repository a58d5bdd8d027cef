import { ArrowRight } from 'lucide-react';
import { formatEuro, STORAGE_PLAN_IDS, STORAGE_PLANS } from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { FeatureCard } from '../../components/marketing/feature-card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct } from '../../config/products.ts';
import { AvailabilityBadge } from '../../components/marketing/availability-badge.tsx';

const plans = STORAGE_PLAN_IDS.map((id) => STORAGE_PLANS[id]);
const lowestMonthlyCents = Math.min(...plans.map((p) => p.monthlyCents));

const product = findProduct('cloud-storage');
const features = product.features;

export function CloudStoragePage() {
  return (
    <>
      <PageMeta title="Cloud-Speicher" description={`Cloud-Speicher mit Nextcloud von 100 GB bis 10 TB, ab ${formatEuro(lowestMonthlyCents)} im Monat – im Browser, mit Desktop- und Mobil-Apps oder als Netzlaufwerk über WebDAV, mit Freigabelinks.`} />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.25fr_1fr]">
          <div>
            <p className="flex flex-wrap items-center gap-3 text-sm font-semibold uppercase tracking-wide text-brand-200">
              {product.name} <AvailabilityBadge availability={product.availability} className="normal-case tracking-normal" />
            </p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Ihre Daten. Sicher in der Cloud.</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
              Speichern, synchronisieren und teilen Sie Ihre Dateien mit bis zu 10 TB Speicherplatz in Ihrem eigenen Nextcloud-Konto – im Browser, mit den Desktop- und Mobil-Apps oder als Netzlaufwerk über WebDAV.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={paths.shop.cloudStorage} size="lg">
                Cloud-Speicher bestellen <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
            </div>
          </div>
          <div className="rounded-2xl border border-white/10 bg-white/5 p-8 text-center backdrop-blur">
            <p className="text-slate-300">100&nbsp;GB bis 10&nbsp;TB pro Konto</p>
            <p className="mt-2 text-5xl font-bold text-white sm:text-6xl">ab {formatEuro(lowestMonthlyCents)}</p>
            <p className="mt-2 text-slate-300">im Monat, inkl. 19&nbsp;% USt.</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="zugriff-title" className="bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Zugriff und Funktionen</p>
            <h2 id="zugriff-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Von überall auf Ihre Dateien zugreifen</h2>
            <p className="mt-4 text-lg text-slate-600">Ihr Cloud-Speicher ist ein eigenes Nextcloud-Konto. Sie nutzen es im Browser, mit den offiziellen Nextcloud-Apps oder als Netzlaufwerk – mit einem Benutzernamen und einem Passwort.</p>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map((item) => (
              <li key={item.title}>
                <FeatureCard {...item} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cloud-tarife-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Tarife</p>
            <h2 id="cloud-tarife-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Der passende Speicherplatz</h2>
            <p className="mt-4 text-lg text-slate-600">Laufzeit von 1 bis 12 Monaten, mit Rabatt ab 3 Monaten. Den Tarif wechseln Sie mit jeder Verlängerung.</p>
          </div>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Tarife">
            {plans.map((plan) => (
              <li key={plan.id} data-plan={plan.id} className="rounded-xl border border-slate-200 bg-slate-50 p-5 text-center">
                <p className="text-2xl font-bold text-slate-900">{plan.name}</p>
                <p className="mt-2 text-lg font-semibold tabular-nums text-slate-900">{formatEuro(plan.monthlyCents)}</p>
                <p className="text-sm text-slate-600">pro Monat</p>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-slate-600">Preise inkl. 19 % USt. für Privatkunden in Deutschland. Firmenkunden und Kunden im Ausland sehen ihren Preis nach der Anmeldung im Shop.</p>
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
