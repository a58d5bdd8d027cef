import { ArrowRight, Building } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { FactList, PageIntro } from '../../components/marketing/page-intro.tsx';
import { AvailabilityBadge } from '../../components/marketing/availability-badge.tsx';
import { cn } from '../../lib/cn.ts';
import { paths } from '../../config/paths.ts';
import { products } from '../../config/products.ts';

const linkClass = 'font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

/** /unternehmen: who runs the portal (the company configuration, as on the imprint and invoices) and what it sells. */
export function CompanyPage() {
  const company = __COMPANY__;
  const facts = [
    { label: 'Firma', value: company.name },
    { label: 'Anschrift', value: <>{company.street}<br />{company.zipCity}<br />{company.country}</> },
    { label: 'Geschäftsführung', value: company.managingDirector },
    { label: 'Handelsregister', value: company.register },
    { label: 'USt-IdNr.', value: company.vatId },
    { label: 'E-Mail', value: <a className={linkClass} href={`mailto:${company.email}`}>{company.email}</a> },
    { label: 'Telefon', value: <a className={linkClass} href={`tel:${company.phone.replace(/[^+\d]/g, '')}`}>{company.phone}</a> },
  ];
  return (
    <>
      <PageMeta title="Unternehmen" description={`${company.name}: Anschrift, Geschäftsführung, Handelsregister und das Angebot an Root Servern, Webhosting und Domains.`} />
      <PageIntro icon={Building} title={`Über ${company.name}`}>
        <p>{company.name} ist ein Hosting-Anbieter für Unternehmen und Privatkunden mit Sitz in {company.zipCity.replace(/^\d+\s*/, '')}. Unser Unternehmen befindet sich noch im Aufbau.</p>
      </PageIntro>

      <div className="mx-auto max-w-3xl space-y-14 px-4 py-12 sm:px-6 sm:py-16">
        <section aria-labelledby="firmendaten">
          <h2 id="firmendaten" className="text-2xl font-bold tracking-tight text-slate-900">Unternehmensdaten</h2>
          <div className="mt-6"><FactList facts={facts} /></div>
          <p className="mt-4 text-sm text-slate-600">
            Alle Pflichtangaben finden Sie im <Link className={linkClass} to={paths.imprint}>Impressum</Link>.
          </p>
        </section>

        <section aria-labelledby="angebot">
          <h2 id="angebot" className="text-2xl font-bold tracking-tight text-slate-900">Unser Angebot</h2>
          <ul className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
            {products.map((product) => (
              <li key={product.id} data-product={product.id} className="flex gap-4 px-5 py-4">
                <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <product.icon className="size-5" aria-hidden="true" />
                </span>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="font-semibold text-slate-900"><Link className="hover:text-brand-700 hover:underline" to={product.path}>{product.name}</Link></h3>
                    <AvailabilityBadge availability={product.availability} />
                  </div>
                  <p className="mt-1 text-sm text-slate-600">{product.pitch}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="mehr" className="rounded-2xl bg-slate-50 p-6 sm:p-8">
          <h2 id="mehr" className="text-xl font-semibold text-slate-900">Mehr erfahren</h2>
          <ul className="mt-4 space-y-3">
            <li><Link className={cn(linkClass, 'inline-flex items-center gap-1')} to={paths.dataCenter}>Unser Rechenzentrum <ArrowRight className="size-4" aria-hidden="true" /></Link></li>
            <li><Link className={cn(linkClass, 'inline-flex items-center gap-1')} to={paths.docs}>Dokumentation und Hilfe <ArrowRight className="size-4" aria-hidden="true" /></Link></li>
            <li><Link className={cn(linkClass, 'inline-flex items-center gap-1')} to={paths.status}>Systemstatus <ArrowRight className="size-4" aria-hidden="true" /></Link></li>
          </ul>
        </section>
      </div>
    </>
  );
}
