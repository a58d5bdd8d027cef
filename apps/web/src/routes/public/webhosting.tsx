import { ArrowRight, Check } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FeatureCard } from '../../components/marketing/feature-card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct } from '../../config/products.ts';

const features = findProduct('webhosting').features;

const useCases = [
  'Unternehmenswebsites und Landingpages',
  'Blogs und Portfolios mit WordPress',
  'Kleine Onlineshops',
  'Vereins- und Projektseiten',
];

export function WebhostingPage() {
  return (
    <>
      <PageMeta title="Webhosting" description="Webhosting mit PHP & MySQL, FTP/SFTP, automatischen Backups, One-Click-Installer, kostenloser Subdomain und SSL-Zertifikat." />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
        <div className="relative mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
          <div className="max-w-3xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-200">Webhosting</p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Webhosting, das einfach funktioniert</h1>
            <p className="mt-6 text-lg leading-8 text-slate-300">
              Alles für Ihre Website an einem Ort: schneller NVMe-Speicher, PHP und MySQL, kostenloses SSL und automatische Backups. Sie kümmern sich um die Inhalte – wir um die Technik.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={paths.shop.webhosting} size="lg">
                Webhosting bestellen <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
              <a href="#funktionen" className="inline-flex h-12 items-center justify-center rounded-lg border border-white/30 px-6 text-base font-medium text-white transition-colors hover:bg-white/10">
                Funktionen ansehen
              </a>
            </div>
          </div>
        </div>
      </section>

      <section id="funktionen" aria-labelledby="funktionen-title" className="scroll-mt-20 bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Funktionen</p>
            <h2 id="funktionen-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Alles inklusive, was Ihre Website braucht</h2>
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

      <section aria-labelledby="einsatz-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Einsatzbereiche</p>
            <h2 id="einsatz-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Ideal für Ihren Auftritt im Web</h2>
            <p className="mt-4 text-lg text-slate-600">
              Beim Webhosting teilen sich mehrere Kunden einen sicher getrennten Server. Den Betrieb, die Updates und die Sicherheit übernehmen wir – der Zugriff auf das System ist deshalb eingeschränkt. Brauchen Sie volle Kontrolle, ist ein Root Server die richtige Wahl.
            </p>
            <ButtonLink to={paths.rootServer} variant="outline" size="lg" className="mt-8">Root Server ansehen</ButtonLink>
          </div>
          <Card className="p-6 sm:p-8">
            <h3 className="text-lg font-semibold text-slate-900">Perfekt geeignet für</h3>
            <ul className="mt-6 space-y-4">
              {useCases.map((item) => (
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

      <section aria-labelledby="wh-cta-title" className="bg-brand-700">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 id="wh-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Bringen Sie Ihre Website online</h2>
            <p className="mt-2 text-lg text-brand-100">Mit kostenlosem SSL-Zertifikat und 30 Tagen Geld-zurück-Garantie.</p>
          </div>
          <ButtonLink to={paths.shop.webhosting} variant="outline" size="lg">Zum Webhosting-Shop</ButtonLink>
        </div>
      </section>
    </>
  );
}
