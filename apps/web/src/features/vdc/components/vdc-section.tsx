import { Link } from 'react-router';
import { Boxes, CalendarClock, Cpu, HardDrive, MemoryStick, Server, Settings2 } from 'lucide-react';
import type { VdcCard } from '@hp/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProductSection } from '../../../components/product-section.tsx';
import { paths } from '../../../config/paths.ts';
import { useVdcList } from '../api/vdcs.ts';
import { formatDate } from './format.ts';
import { VdcStatusBadge } from './status-badge.tsx';

/** The virtual data center section of "Meine Produkte" (/dashboard). */
export function VdcSection() {
  const list = useVdcList();
  return (
    <ProductSection id="my-vdcs" title="Virtual Data Center" orderLink={{ to: paths.shop.vdcRequest, label: 'Virtual Data Center bestellen' }} loadingLabel="Lade Virtual Data Center …" listLabel="Virtual Data Center"
      query={{ ...list, items: list.data?.items }}
      empty={{ icon: Boxes, title: 'Kein Virtual Data Center', text: 'Ein Pool aus vCPU, RAM, Speicher und IPv4-Adressen, den Sie selbst auf Ihre VMs aufteilen – mit ISO-Upload und privatem Netzwerk.' }}
      renderItem={(v) => <VdcItem key={v.id} vdc={v} />} />
  );
}

function VdcItem({ vdc: v }: { vdc: VdcCard }) {
  const usage = (used: number, total: number, unit: string) => `${used.toLocaleString('de-DE')} von ${total.toLocaleString('de-DE')}${unit} belegt`;
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h3 className="break-words text-lg font-semibold text-slate-900">{v.name}</h3>
            <p className="text-sm text-slate-600">Virtual Data Center · VDC-ID {v.number}</p>
          </div>
          <VdcStatusBadge status={v.status} />
        </div>
        <dl className="mt-4 grid gap-2 text-sm">
          <Line icon={Cpu} label="vCPU" value={`vCPU: ${usage(v.cpu.used, v.cpu.total, ' Kernen')}`} />
          <Line icon={MemoryStick} label="RAM" value={`RAM: ${usage(v.ramGb.used, v.ramGb.total, ' GB')}`} />
          <Line icon={HardDrive} label="Speicher" value={`Speicher: ${usage(v.storageGb.used, v.storageGb.total, ' GB')}`} />
          <Line icon={Server} label="VMs" value={`${v.vms} ${v.vms === 1 ? 'VM' : 'VMs'}`} />
          <Line icon={CalendarClock} label="Läuft bis" value={`Läuft bis ${formatDate(v.expiresAt)}`} />
        </dl>
        {v.statusMessage && <p className="mt-3 text-sm text-slate-700">{v.statusMessage}</p>}
        <div className="mt-auto flex flex-wrap gap-2 pt-5">
          <Link to={paths.dashboard.vdc(v.id)} className={buttonClass('secondary', 'sm')} aria-label={`Virtual Data Center ${v.name} verwalten`}><Settings2 className="size-4" aria-hidden="true" /> Verwalten</Link>
          {v.status !== 'provisioning' && v.status !== 'failed' && (
            <Link to={paths.shop.vdcRenew(v.id)} className={buttonClass('outline', 'sm')} aria-label={`Virtual Data Center ${v.name} verlängern oder erweitern`}>Verlängern</Link>
          )}
        </div>
      </Card>
    </li>
  );
}

function Line({ icon: Icon, label, value }: { icon: typeof Cpu; label: string; value: string }) {
  return <div className="flex items-center gap-2 text-slate-700"><Icon className="size-4 shrink-0 text-slate-500" aria-hidden="true" /><dt className="sr-only">{label}</dt><dd>{value}</dd></div>;
}
