import { Link } from 'react-router';
import { toast } from 'sonner';
import { Cpu, HardDrive, MemoryStick, Network, RotateCcw, ServerOff, Settings2 } from 'lucide-react';
import { serverMessages, type ServerCard } from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ProductSection } from '../../../components/product-section.tsx';
import { isTransitional, useServers } from '../api/servers.ts';
import { PowerButton, usePowerRunner } from './power-button.tsx';
import { ServerStatusBadge } from './status-badge.tsx';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../config/paths.ts';

/** The servers section of "Meine Produkte" (/dashboard): own and shared servers with power and links. */
export function MyServersSection() {
  const servers = useServers();
  return (
    <ProductSection id="my-servers" title="Server" orderLink={{ to: paths.shop.kvmServer, label: 'Server bestellen' }} loadingLabel="Lade Server..." listLabel="Server"
      query={{ ...servers, items: servers.data?.servers }}
      empty={{ icon: ServerOff, title: 'Keine Server gefunden', text: 'Sie haben aktuell noch keinen aktiven Server.' }}
      renderItem={(server) => <ServerCardItem key={server.id} server={server} />} />
  );
}

function ServerCardItem({ server }: { server: ServerCard }) {
  const power = usePowerRunner(server);
  const inMaintenance = server.status === 'maintenance';
  const busy = isTransitional(server.status) || power.pending || server.status === 'provisioning';
  const running = server.status !== 'offline' && server.status !== 'failed';

  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
          <div className="min-w-0">
            <h3 className="text-lg font-semibold text-slate-900">{server.name}</h3>
            <p className="text-sm text-slate-600">{server.os} · ID {String(server.vmid).padStart(3, '0')}{server.access === 'shared' ? ' · geteilt' : ''}</p>
          </div>
          <ServerStatusBadge status={server.status} />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <Spec icon={Cpu} label="CPU" value={`${server.specs.cpu} Kerne`} />
          <Spec icon={MemoryStick} label="RAM" value={`${server.specs.ram} GB`} />
          <Spec icon={Network} label="IP" value={server.ip ?? '–'} />
          <Spec icon={HardDrive} label="Speicher" value={`${server.specs.storage} GB`} />
        </dl>
        <div className="mt-5 flex flex-wrap gap-2 pt-1">
          {inMaintenance ? (
            <span
              role="link"
              aria-disabled="true"
              tabIndex={0}
              onClick={() => toast.error(serverMessages.maintenanceManage, { duration: 7000 })}
              onKeyDown={(e) => e.key === 'Enter' && toast.error(serverMessages.maintenanceManage, { duration: 7000 })}
              className={cn(buttonClass('secondary', 'sm'), 'cursor-not-allowed opacity-50')}
            >
              <Settings2 className="size-4" aria-hidden="true" /> Verwalten
            </span>
          ) : (
            <Link to={paths.dashboard.server(server.os, server.id)} className={buttonClass('secondary', 'sm')} aria-label={`${server.name} verwalten`}>
              <Settings2 className="size-4" aria-hidden="true" /> Verwalten
            </Link>
          )}
          <PowerButton server={server} running={running} disabled={busy} runningVariant="outline" run={power.run} />
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void power.run('restart').catch(() => {})}>
            <RotateCcw className="size-4" aria-hidden="true" /> Neustart
          </Button>
        </div>
      </Card>
    </li>
  );
}

function Spec({ icon: Icon, label, value }: { icon: typeof Cpu; label: string; value: string }) {
  return (
    <div className="flex items-start gap-2">
      <Icon className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden="true" />
      <div className="min-w-0">
        <dt className="text-xs text-slate-600">{label}</dt>
        <dd className="break-words font-medium text-slate-900">{value}</dd>
      </div>
    </div>
  );
}
