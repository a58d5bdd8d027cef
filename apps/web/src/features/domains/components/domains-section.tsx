import { Link } from 'react-router';
import { CalendarClock, Globe, RefreshCw, Settings2 } from 'lucide-react';
import type { DomainCard } from '@hp/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProductSection } from '../../../components/product-section.tsx';
import { paths } from '../../../config/paths.ts';
import { useMyDomains } from '../api/my-domains.ts';
import { DomainStatusBadge, berlinDate } from './domain-status.tsx';

/** The domains section of "Meine Produkte" (/dashboard). */
export function DomainsSection() {
  const list = useMyDomains();
  return (
    <ProductSection id="my-domains" title="Domains" orderLink={{ to: paths.domain, label: 'Domain suchen' }} loadingLabel="Lade Domains …" listLabel="Domains"
      query={{ ...list, items: list.data?.items }}
      empty={{ icon: Globe, title: 'Keine Domains', text: 'Registrieren Sie Ihre Wunschdomain oder ziehen Sie eine vorhandene mit dem Auth-Code zu uns um.' }}
      renderItem={(d) => <DomainItem key={d.id} domain={d} />} />
  );
}

function DomainItem({ domain: d }: { domain: DomainCard }) {
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <h3 className="min-w-0 break-all text-lg font-semibold text-slate-900">{d.unicode}</h3>
          <DomainStatusBadge status={d.status} />
        </div>
        <dl className="mt-4 grid gap-2 text-sm">
          <div className="flex items-center gap-2 text-slate-700"><CalendarClock className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Läuft bis</dt><dd>Läuft bis {d.expiresAt ? berlinDate.format(new Date(d.expiresAt)) : '–'}</dd></div>
          <div className="flex items-center gap-2 text-slate-700"><RefreshCw className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Verlängerung</dt><dd>{d.autoRenew ? 'Verlängerung: Erinnerung mit Zahlungslink' : 'Läuft aus (keine Erinnerung)'}</dd></div>
        </dl>
        {d.statusMessage && <p className="mt-3 text-sm text-slate-700">{d.statusMessage}</p>}
        <div className="mt-auto flex flex-wrap gap-2 pt-5">
          <Link to={paths.dashboard.domain(d.id)} className={buttonClass('secondary', 'sm')} aria-label={`${d.unicode} verwalten`}><Settings2 className="size-4" aria-hidden="true" /> Verwalten</Link>
          {(d.status === 'active' || d.status === 'expired') && <Link to={paths.shop.domainRenew(d.id)} className={buttonClass('outline', 'sm')} aria-label={`${d.unicode} verlängern`}>Verlängern</Link>}
        </div>
      </Card>
    </li>
  );
}
