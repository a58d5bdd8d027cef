import { Link } from 'react-router';
import { CalendarClock, Globe, Settings2, Zap } from 'lucide-react';
import type { HostingCard } from '@hp/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProductSection } from '../../../components/product-section.tsx';
import { paths } from '../../../config/paths.ts';
import { useHostingPackages } from '../api/package-list.ts';
import { HostingStatusBadge } from './status-badge.tsx';

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });

/** The web hosting section of "Meine Produkte" (/dashboard). */
export function HostingPackagesSection() {
  const list = useHostingPackages();
  return (
    <ProductSection id="my-hosting" title="Webhosting" orderLink={{ to: paths.shop.webhosting, label: 'Webhosting bestellen' }} loadingLabel="Lade Hosting-Pakete …" listLabel="Hosting-Pakete"
      query={{ ...list, items: list.data?.items }}
      empty={{ icon: Globe, title: 'Keine Hosting-Pakete', text: 'Mit einem Webhosting-Paket bringen Sie Ihre Website mit PHP, MySQL und SSL online.' }}
      renderItem={(p) => <PackageCard key={p.id} pkg={p} />} />
  );
}

function PackageCard({ pkg }: { pkg: HostingCard }) {
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h3 className="break-all text-lg font-semibold text-slate-900">{pkg.name}</h3>
            <p className="text-sm text-slate-600">Webhosting {pkg.planName}{pkg.access === 'shared' ? ' · geteilt' : ''}</p>
          </div>
          <HostingStatusBadge status={pkg.status} />
        </div>
        <dl className="mt-4 grid gap-2 text-sm">
          <div className="flex items-center gap-2 text-slate-700"><Globe className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Domain</dt><dd className="break-all">{pkg.primaryDomain}</dd></div>
          <div className="flex items-center gap-2 text-slate-700"><Zap className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Tarif</dt><dd>{pkg.planName}</dd></div>
          <div className="flex items-center gap-2 text-slate-700"><CalendarClock className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Läuft bis</dt><dd>Läuft bis {pkg.expiresAt ? berlinDate.format(new Date(pkg.expiresAt)) : '–'}</dd></div>
        </dl>
        {pkg.statusMessage && <p className="mt-3 text-sm text-slate-700">{pkg.statusMessage}</p>}
        <div className="mt-auto flex flex-wrap gap-2 pt-5">
          <Link to={paths.dashboard.webhosting(pkg.id)} className={buttonClass('secondary', 'sm')} aria-label={`${pkg.name} verwalten`}><Settings2 className="size-4" aria-hidden="true" /> Verwalten</Link>
          {pkg.access === 'owner' && pkg.status !== 'provisioning' && pkg.status !== 'failed' && (
            <Link to={`${paths.shop.webhosting}?renew=${encodeURIComponent(pkg.id)}`} className={buttonClass('outline', 'sm')}>Verlängern</Link>
          )}
        </div>
      </Card>
    </li>
  );
}
