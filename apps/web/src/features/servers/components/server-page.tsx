import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ArrowLeft, Cpu, HardDrive, MemoryStick, Package, RefreshCcw, RotateCcw, Shield } from 'lucide-react';
import { formatUptime, isLinuxOs, type ServerDetail, type ServerUsage } from '@hp/contract';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { isTransitional, useServer, useServerStatus } from '../api/servers.ts';
import { useUsageHistory } from '../api/usage-history.ts';
import { PowerButton, usePowerRunner } from './power-button.tsx';
import { ServerStatusBadge } from './status-badge.tsx';
import { UsageChart } from './usage-chart.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { NetworkTab } from './tabs/network.tsx';
import { BackupsTab } from './tabs/backups.tsx';
import { SoftwareTab } from './tabs/software.tsx';
import { SettingsTab } from './tabs/settings.tsx';
import { ConsoleButton } from './console-button.tsx';
import { useReinstallOutcome } from '../use-reinstall-outcome.ts';
import { paths } from '../../../config/paths.ts';

const ReinstallDialog = lazy(() => import('./reinstall-dialog.tsx').then((m) => ({ default: m.ReinstallDialog })));

const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : '–');
const formatBytes = (b: number) => (b >= 1073741824 ? `${(b / 1073741824).toFixed(1)} GB` : `${(b / 1048576).toFixed(0)} MB`);

export default function ServerDetailPage() {
  const { serverId = '' } = useParams();
  const server = useServer(serverId);
  const status = useServerStatus(serverId, server.isSuccess);
  const [tab, setTab] = useState('overview');
  useReinstallOutcome(serverId, status.data?.status, status.data?.task?.kind);

  if (server.isPending) return <Spinner label="Lade Server..." />;
  if (server.isError) {
    if (server.error instanceof ApiRequestError && (server.error.status === 404 || server.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{server.error.message} <button type="button" className="underline" onClick={() => server.refetch()}>Erneut versuchen</button></Alert>;
  }
  const detail = server.data;
  const live = status.data;
  const current = live?.status ?? detail.status;

  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title={detail.name} />
      <Link to={paths.dashboard.root} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Meine Produkte</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-bold text-slate-900">{detail.name}</h1>
            <ServerStatusBadge status={current} />
          </div>
          <p className="mt-1 text-sm text-slate-600">Server-ID {String(detail.vmid).padStart(3, '0')} · {detail.os}</p>
          {detail.statusMessage && current !== 'online' && <p className="mt-2 text-sm text-red-700">{detail.statusMessage}</p>}
        </div>
        <ServerActions detail={detail} status={current} />
      </header>
      {live?.task && live.task.status === 'running' && (
        <div className="mt-4" role="status">
          <div className="flex justify-between text-sm text-slate-700"><span>Vorgang läuft: {taskLabel(live.task.kind)}</span><span>{live.task.progress} %</span></div>
          <div className="mt-1 h-2 rounded-full bg-slate-200"><div className="h-2 rounded-full bg-brand-600 transition-[width]" style={{ width: `${live.task.progress}%` }} /></div>
        </div>
      )}
      <Tabs value={tab} onValueChange={setTab} className="mt-6">
        <TabsList aria-label="Bereiche der Serververwaltung">
          <TabsTrigger value="overview">Übersicht</TabsTrigger>
          <TabsTrigger value="performance">Performance</TabsTrigger>
          <TabsTrigger value="network">Netzwerk</TabsTrigger>
          <TabsTrigger value="backups">Backups</TabsTrigger>
          <TabsTrigger value="software">Installation</TabsTrigger>
          <TabsTrigger value="settings">Einstellungen</TabsTrigger>
        </TabsList>
        <TabsContent value="overview"><Overview detail={detail} live={live} status={current} onTab={setTab} /></TabsContent>
        <TabsContent value="performance"><Performance detail={detail} live={live} /></TabsContent>
        <TabsContent value="network"><NetworkTab detail={detail} /></TabsContent>
        <TabsContent value="backups"><BackupsTab detail={detail} /></TabsContent>
        <TabsContent value="software"><SoftwareTab detail={detail} /></TabsContent>
        <TabsContent value="settings"><SettingsTab detail={detail} /></TabsContent>
      </Tabs>
    </div>
  );
}

const taskLabel = (kind: string) => ({ start: 'Start', stop: 'Herunterfahren', reboot: 'Neustart', create: 'Einrichtung', install: 'Installation', uninstall: 'Deinstallation', reinstall: 'Neuinstallation', backup: 'Backup', restore: 'Wiederherstellung', resize: 'Ressourcen geändert', 'network-join': 'Privates Netz verbunden', 'network-leave': 'Privates Netz getrennt' } as Record<string, string>)[kind] ?? kind;

function ServerActions({ detail, status }: { detail: ServerDetail; status: string }) {
  const power = usePowerRunner({ id: detail.id, status });
  const busy = isTransitional(status) || power.pending || status === 'provisioning';
  const running = status !== 'offline' && status !== 'failed';
  return (
    <div className="flex flex-wrap gap-2">
      <ConsoleButton detail={detail} status={status} />
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void power.run('restart').catch(() => {})}><RotateCcw className="size-4" aria-hidden="true" /> Neustart</Button>
      <PowerButton server={{ status }} running={running} disabled={busy} run={power.run} />
    </div>
  );
}

function Overview({ detail, live, status, onTab }: { detail: ServerDetail; live: ServerUsage | undefined; status: string; onTab: (tab: string) => void }) {
  const [reinstalling, setReinstalling] = useState(false);
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="mb-3 font-semibold text-slate-900">Schnellaktionen</h2>
        <div className="flex flex-wrap gap-2">
          <ServerActions detail={detail} status={status} />
          <Button variant="outline" size="sm" onClick={() => onTab('network')}><Shield className="size-4" aria-hidden="true" /> Firewall</Button>
          <Button variant="outline" size="sm" onClick={() => onTab('software')}><Package className="size-4" aria-hidden="true" /> Software</Button>
          {detail.access === 'owner' && (
            <Button variant="outline" size="sm" onClick={() => setReinstalling(true)}><RefreshCcw className="size-4" aria-hidden="true" /> Server neuinstallieren</Button>
          )}
        </div>
        {reinstalling && (
          <Suspense fallback={null}>
            <ReinstallDialog detail={detail} linux={isLinuxOs(detail.os)} open={reinstalling} onOpenChange={setReinstalling} />
          </Suspense>
        )}
      </Card>
      <div className="grid gap-4 sm:grid-cols-3">
        <UsageCard icon={Cpu} label="CPU-Auslastung" value={live ? `${live.cpuUsage.toLocaleString('de-DE')} %` : '…'} percent={live?.cpuUsage ?? 0} />
        <UsageCard icon={MemoryStick} label="Arbeitsspeicher" value={live ? `${(live.ramUsedMb / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} / ${Math.round(live.ramTotalMb / 1024)} GB` : '…'} percent={live ? (live.ramUsedMb / Math.max(1, live.ramTotalMb)) * 100 : 0} />
        <UsageCard icon={HardDrive} label="Speicher" value={live ? `${live.storageUsedGb.toLocaleString('de-DE')} / ${live.storageTotalGb} GB` : '…'} percent={live ? (live.storageUsedGb / Math.max(1, live.storageTotalGb)) * 100 : 0} />
      </div>
      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">Serverdaten</h2>
        <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
          <Row label="IP-Adresse" value={detail.network.ipv4 ?? '–'} />
          <Row label="Betriebssystem" value={detail.os} />
          <Row label="Typ" value="KVM Root Server" />
          <Row label="CPU" value={`${detail.specs.cpu} vCPU`} />
          <Row label="RAM" value={`${detail.specs.ram} GB`} />
          <Row label="Speicher" value={`${detail.specs.storage} GB NVMe`} />
          <Row label="Betriebszeit" value={live ? formatUptime(live.uptimeSeconds) : '…'} />
          {detail.access === 'owner' && (
            <div className="flex items-center justify-between gap-4 sm:col-span-2">
              {/* Servers set up by staff without an order have no term (and nothing to renew). */}
              <div><dt className="text-slate-600">Laufzeit bis</dt><dd className="font-medium text-slate-900">{detail.expiresAt ? formatDate(detail.expiresAt) : 'Unbefristet'}</dd></div>
              {detail.expiresAt && <ButtonLink to={paths.shop.upgradeKvmServer(detail.id)} size="sm" variant="outline">Verlängern</ButtonLink>}
            </div>
          )}
        </dl>
      </Card>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return <div><dt className="text-slate-600">{label}</dt><dd className="font-medium text-slate-900">{value}</dd></div>;
}

function UsageCard({ icon: Icon, label, value, percent }: { icon: typeof Cpu; label: string; value: string; percent: number }) {
  const p = Math.max(0, Math.min(100, percent));
  return (
    <Card className="p-5">
      <div className="flex items-center gap-2 text-sm text-slate-600"><Icon className="size-4" aria-hidden="true" /> {label}</div>
      <p className="mt-2 text-xl font-semibold text-slate-900">{value}</p>
      <div className="mt-3 h-2 rounded-full bg-slate-200" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(p)}>
        <div className="h-2 rounded-full bg-brand-600 transition-[width]" style={{ width: `${p}%` }} />
      </div>
    </Card>
  );
}

function Performance({ detail, live }: { detail: ServerDetail; live: ServerUsage | undefined }) {
  const [timeframe, setTimeframe] = useState<'hour' | 'day' | 'week'>('hour');
  const history = useUsageHistory(detail.id, timeframe);
  const points = history.data?.points ?? [];
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700">
          {detail.specs.cpu} vCPU (KVM, host-passthrough) · Netzwerk 1 Gbit/s · empfangen {live ? formatBytes(live.netInBytes) : '…'}, gesendet {live ? formatBytes(live.netOutBytes) : '…'}
        </p>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Zeitraum
          <select className="rounded-md border border-slate-300 bg-white px-2 py-1.5" value={timeframe} onChange={(e) => setTimeframe(e.target.value as typeof timeframe)}>
            <option value="hour">Letzte Stunde</option>
            <option value="day">Letzter Tag</option>
            <option value="week">Letzte Woche</option>
          </select>
        </label>
      </div>
      {history.isPending ? <Spinner label="Verlauf wird geladen …" /> : history.isError ? <Alert tone="error">{history.error.message}</Alert> : (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card className="p-5">
            <h2 className="mb-3 font-semibold text-slate-900">CPU-Auslastung (%)</h2>
            <UsageChart label="CPU-Auslastung" unit="%" max={100} points={points.map((p) => ({ time: p.time, value: p.cpu }))} />
          </Card>
          <Card className="p-5">
            <h2 className="mb-3 font-semibold text-slate-900">Arbeitsspeicher (MB)</h2>
            <UsageChart label="Arbeitsspeicher" unit="MB" max={detail.specs.ram * 1024} color="#0f766e" points={points.map((p) => ({ time: p.time, value: p.ramUsedMb }))} />
          </Card>
        </div>
      )}
    </div>
  );
}
