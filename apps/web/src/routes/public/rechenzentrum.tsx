import { ArrowRight, Warehouse } from 'lucide-react';
import { Link } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { FactList, PageIntro } from '../../components/marketing/page-intro.tsx';
import { paths } from '../../config/paths.ts';

const linkClass = 'inline-flex items-center gap-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900';

/**
 * /rechenzentrum: the data-center facts the operator configured (DATACENTER_*; an empty value hides its
 * line) and what the product itself guarantees for every server.
 */
export function DataCenterPage() {
  const dc = __DATA_CENTER__;
  const site = [
    { label: 'Standort', value: dc.location },
    { label: 'Betreiber', value: dc.operator },
    { label: 'Zertifizierungen', value: dc.certifications.join(', ') },
    { label: 'Stromversorgung', value: dc.power },
    { label: 'Netzwerk', value: dc.network },
  ];
  const servers = [
    { label: 'Virtualisierung', value: 'KVM auf Proxmox VE, mit fest zugewiesenen CPU-Kernen, Arbeitsspeicher und NVMe-Speicher' },
    { label: 'Anbindung je Server', value: '1 Gbit/s und eine eigene IPv4-Adresse' },
    { label: 'Backups', value: 'Auf Knopfdruck im Kundenportal, Wiederherstellung ebenfalls dort' },
  ];
  return (
    <>
      <PageMeta title="Rechenzentrum" description={`Unser Rechenzentrum${dc.location ? ` in ${dc.location}` : ''}: Standort, Zertifizierungen, Stromversorgung und Netzwerk.`} />
      <PageIntro icon={Warehouse} title="Unser Rechenzentrum">
        <p>{dc.location ? `Ihre Server und Websites laufen in ${dc.location}.` : 'Ihre Server und Websites laufen in unserem Rechenzentrum.'} Hier finden Sie die wichtigsten Angaben zu Standort, Stromversorgung und Netzwerk.</p>
      </PageIntro>

      <div className="mx-auto max-w-3xl space-y-14 px-4 py-12 sm:px-6 sm:py-16">
        <section aria-labelledby="standort">
          <h2 id="standort" className="text-2xl font-bold tracking-tight text-slate-900">Standort und Infrastruktur</h2>
          <div className="mt-6"><FactList facts={site} /></div>
        </section>

        <section aria-labelledby="ihre-server">
          <h2 id="ihre-server" className="text-2xl font-bold tracking-tight text-slate-900">Ihre Server</h2>
          <div className="mt-6"><FactList facts={servers} /></div>
        </section>

        <section aria-labelledby="rz-mehr" className="rounded-2xl bg-slate-50 p-6 sm:p-8">
          <h2 id="rz-mehr" className="text-xl font-semibold text-slate-900">Aktueller Betriebszustand</h2>
          <p className="mt-2 text-slate-600">Störungen und Wartungsarbeiten veröffentlichen wir auf der Statusseite.</p>
          <ul className="mt-4 space-y-3">
            <li><Link className={linkClass} to={paths.status}>Systemstatus ansehen <ArrowRight className="size-4" aria-hidden="true" /></Link></li>
            <li><Link className={linkClass} to={paths.company}>Über unser Unternehmen <ArrowRight className="size-4" aria-hidden="true" /></Link></li>
          </ul>
        </section>
      </div>
    </>
  );
}
