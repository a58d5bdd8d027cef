import { ArrowRight, Clock, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { paths } from '../../config/paths.ts';

export function ComingSoonPage({ product }: { product: string }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <PageMeta title={`${product} – bald verfügbar`} description={`${product} kann derzeit noch nicht bestellt werden. Root Server sind bereits verfügbar.`} />
      <div className="text-center">
        <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-amber-50 text-amber-800">
          <Clock className="size-8" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{product} – bald verfügbar</h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-600">
          Unser Unternehmen befindet sich noch im Aufbau. {product} kann deshalb derzeit noch nicht bestellt werden – wir arbeiten daran, das Angebot so bald wie möglich freizuschalten.
        </p>
      </div>

      <Card className="mt-12 p-6 sm:p-8">
        <h2 className="text-xl font-semibold text-slate-900">Bereits verfügbar: Root Server</h2>
        <p className="mt-2 text-slate-600">
          Root Server mit NVMe-Speicher, DDoS-Schutz und 1 Gbit/s Netzwerk können Sie schon heute konfigurieren und bestellen.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <ButtonLink to={paths.shop.kvmServer}>
            Root Server konfigurieren <ArrowRight className="size-4" aria-hidden="true" />
          </ButtonLink>
          <ButtonLink to={paths.rootServer} variant="outline">Mehr über Root Server</ButtonLink>
        </div>
      </Card>

      <div className="mt-10 flex flex-col items-center gap-4 text-center text-slate-600 sm:flex-row sm:justify-center">
        <a href={`mailto:${__COMPANY__.email}`} className="inline-flex min-h-6 items-center gap-2 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          <Mail className="size-4" aria-hidden="true" /> Fragen? Schreiben Sie uns
        </a>
        <Link to={paths.home} className="inline-flex min-h-6 items-center font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">Zur Startseite</Link>
      </div>
    </section>
  );
}
