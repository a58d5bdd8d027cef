import { Link } from 'react-router';
import { CalendarClock, Cloud, HardDrive, Settings2 } from 'lucide-react';
import type { StorageCard } from '@hp/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProductSection } from '../../../components/product-section.tsx';
import { paths } from '../../../config/paths.ts';
import { useStorageList } from '../api/storage.ts';
import { formatDate } from './format.ts';
import { StorageStatusBadge } from './status-badge.tsx';

/** The cloud storage section of "Meine Produkte" (/dashboard). */
export function StorageSection() {
  const list = useStorageList();
  return (
    <ProductSection id="my-storage" title="Cloud-Speicher" orderLink={{ to: paths.shop.cloudStorage, label: 'Cloud-Speicher bestellen' }} loadingLabel="Lade Cloud-Speicher …" listLabel="Cloud-Speicher"
      query={{ ...list, items: list.data?.items }}
      empty={{ icon: Cloud, title: 'Kein Cloud-Speicher', text: 'Mit Cloud-Speicher haben Sie Ihre Dateien im Browser, in den Apps und als Netzlaufwerk überall dabei.' }}
      renderItem={(s) => <StorageItem key={s.id} storage={s} />} />
  );
}

function StorageItem({ storage: s }: { storage: StorageCard }) {
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h3 className="break-all text-lg font-semibold text-slate-900">{s.accountName}</h3>
            <p className="text-sm text-slate-600">Cloud-Speicher · Speicher-ID {s.number}</p>
          </div>
          <StorageStatusBadge status={s.status} />
        </div>
        <dl className="mt-4 grid gap-2 text-sm">
          <div className="flex items-center gap-2 text-slate-700"><HardDrive className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Tarif</dt><dd>Tarif {s.planName}</dd></div>
          <div className="flex items-center gap-2 text-slate-700"><CalendarClock className="size-4 text-slate-500" aria-hidden="true" /><dt className="sr-only">Läuft bis</dt><dd>Läuft bis {formatDate(s.expiresAt)}</dd></div>
        </dl>
        {s.statusMessage && <p className="mt-3 text-sm text-slate-700">{s.statusMessage}</p>}
        <div className="mt-auto flex flex-wrap gap-2 pt-5">
          <Link to={paths.dashboard.cloudStorage(s.id)} className={buttonClass('secondary', 'sm')} aria-label={`Cloud-Speicher ${s.accountName} verwalten`}><Settings2 className="size-4" aria-hidden="true" /> Verwalten</Link>
          {s.status !== 'provisioning' && s.status !== 'failed' && (
            <Link to={paths.shop.cloudStorageRenew(s.id)} className={buttonClass('outline', 'sm')} aria-label={`Cloud-Speicher ${s.accountName} verlängern`}>Verlängern</Link>
          )}
        </div>
      </Card>
    </li>
  );
}
