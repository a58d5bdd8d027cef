import { House, LifeBuoy, SearchX, ServerCrash } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { paths } from '../../config/paths.ts';

const secondaryLink = 'inline-flex min-h-6 items-center font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

export function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-28">
      <PageMeta title="Seite nicht gefunden" description="Die angeforderte Seite wurde nicht gefunden." />
      <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
        <SearchX className="size-8" aria-hidden="true" />
      </span>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700">Fehler 404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Oops! Diese Seite wurde nicht gefunden</h1>
      <p className="mt-4 text-lg text-slate-600">Die Seite, die Sie suchen, existiert nicht oder wurde verschoben. Prüfen Sie die Adresse oder kehren Sie zur Startseite zurück.</p>
      <ButtonLink to={paths.home} size="lg" className="mt-8">
        <House className="size-5" aria-hidden="true" /> Zurück zur Startseite
      </ButtonLink>
      <p className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
        <Link className={secondaryLink} to={paths.faq}>Häufige Fragen</Link>
        <Link className={secondaryLink} to={paths.status}>Systemstatus</Link>
      </p>
    </section>
  );
}

export function ErrorPage() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-28">
      <PageMeta title="Fehler" description="Bei der Verarbeitung Ihrer Anfrage ist ein Fehler aufgetreten." />
      <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-red-50 text-red-700">
        <ServerCrash className="size-8" aria-hidden="true" />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Es ist ein Fehler aufgetreten</h1>
      <p className="mt-4 text-lg text-slate-600">
        Ihre Anfrage konnte leider nicht verarbeitet werden. Bitte versuchen Sie es in einigen Minuten erneut. Besteht das Problem weiterhin, wenden Sie sich an unseren Support.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.home} size="lg">
          <House className="size-5" aria-hidden="true" /> Zur Startseite
        </ButtonLink>
        <a href={`mailto:${__COMPANY__.email}`} className="inline-flex h-12 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-6 text-base font-medium text-slate-900 hover:bg-slate-50">
          <LifeBuoy className="size-5" aria-hidden="true" /> Support kontaktieren
        </a>
      </div>
      <p className="mt-6 text-sm">
        <Link className={secondaryLink} to={paths.status}>Aktuellen Systemstatus prüfen</Link>
      </p>
    </section>
  );
}
