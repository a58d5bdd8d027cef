import { ArrowRight } from 'lucide-react';
import { formatEuro, VDC_LIMITS } from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { paths } from '../../config/paths.ts';
import { findProduct, VDC_FROM_CENTS } from '../../config/products.ts';
import { AvailabilityBadge } from '../../components/marketing/availability-badge.tsx';

const product = findProduct('virtual-data-center');
const features = product.features;

const steps = [
  { title: 'Pool zusammenstellen', text: 'Wählen Sie vCPU, RAM, Speicher, IPv4-Adressen und die Laufzeit im Konfigurator – oder fragen Sie größere Umgebungen individuell an.' },
  { title: 'Bezahlen', text: 'Nach der Zahlung richten wir Ihren Pool automatisch ein; das dauert nur einen Moment.' },
  { title: 'VMs erstellen', text: 'Im Kundenbereich erstellen Sie Ihre VMs aus Linux-Vorlagen oder eigenen ISO-Images und verbinden sie über Ihr privates Netzwerk.' },
];
const requestPath = `${paths.shop.vdcRequest}?anfrage`;

export function VdcPage() {
  return (
    <>
      <PageMeta title="Virtual Data Center" description={`Ihr eigenes virtuelles Rechenzentrum: ein Pool aus vCPU, RAM, Speicher und IPv4-Adressen für eigene VMs, mit ISO-Upload und privatem Netzwerk, ab ${formatEuro(VDC_FROM_CENTS)} im Monat.`} />

      <section className="relative overflow-hidden bg-slate-950 text-white">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(29,78,216,0.45),transparent_60%)]" aria-hidden="true" />
        <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.25fr_1fr]">
          <div>
            <p className="flex flex-wrap items-center gap-3 text-sm font-semibold uppercase tracking-wide text-brand-200">
              {product.name} <AvailabilityBadge availability={product.availability} className="normal-case tracking-normal" />
            </p>
            <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">Ihr eigenes Rechenzentrum – virtuell</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-slate-300">
              Ein Pool aus vCPU, RAM, Speicher und öffentlichen IPv4-Adressen, den Sie selbst auf Ihre VMs aufteilen: erstellen, vergrößern und löschen, wann Sie wollen – ohne Aufpreis pro VM. Mit eigenen ISO-Images und einem privaten Netzwerk.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to={paths.shop.vdcRequest} size="lg">
                Virtual Data Center bestellen <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
              <ButtonLink to={requestPath} variant="outline" size="lg">Individuelle Anfrage</ButtonLink>
            </div>
          </div>
          <div className="rounded-2xl border border-white/10 bg-white/5 p-8 text-center backdrop-blur">
            <p className="text-slate-300">{VDC_LIMITS.cpu.min} vCPU, {VDC_LIMITS.ram.min}&nbsp;GB RAM, {VDC_LIMITS.storage.min}&nbsp;GB Speicher, {VDC_LIMITS.ipv4.min} IPv4</p>
            <p className="mt-2 text-5xl font-bold text-white sm:text-6xl">ab {formatEuro(VDC_FROM_CENTS)}</p>
            <p className="mt-2 text-slate-300">im Monat, inkl. 19&nbsp;% USt.</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="vdc-funktionen-title" className="bg-slate-50 py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Funktionen</p>
            <h2 id="vdc-funktionen-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Volle Flexibilität für Ihre Infrastruktur</h2>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {features.map(({ title, icon: FeatureIcon, text }) => (
              <li key={title}>
                <Card className="flex h-full gap-5 p-6">
                  <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <FeatureIcon className="size-6" aria-hidden="true" />
                  </span>
                  <div>
                    <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
                    <p className="mt-2 text-slate-600">{text}</p>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="ablauf-title" className="bg-white py-16 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">So funktioniert’s</p>
            <h2 id="ablauf-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">In drei Schritten zum Virtual Data Center</h2>
          </div>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title} className="rounded-xl border border-slate-200 p-6">
                <span className="inline-flex size-10 items-center justify-center rounded-full bg-brand-600 font-bold text-white" aria-hidden="true">{i + 1}</span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="vdc-cta-title" className="bg-brand-700">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 id="vdc-cta-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Mehr als die Regler bieten?</h2>
            <p className="mt-2 text-lg text-brand-100">Für größere Pools erstellen wir Ihnen ein Angebot, das Sie direkt im Support-Ticket bezahlen.</p>
          </div>
          <ButtonLink to={requestPath} variant="outline" size="lg">Individuelle Anfrage senden</ButtonLink>
        </div>
      </section>
    </>
  );
}
