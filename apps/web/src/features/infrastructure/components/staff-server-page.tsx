import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, Mail, Power, RotateCcw } from 'lucide-react';
import { formatUptime, formatVmId, serverTaskLabels as taskLabels, type AdminServerDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { useAdminPower, useAdminServer, useAdminServerUsage } from '../api/admin-servers.ts';
import { ServerStatusBadge } from './status-badges.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';

const dateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const date = (iso: string) => new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' });

const taskStatusLabels = { running: 'Läuft', ok: 'Erfolgreich', failed: 'Fehlgeschlagen' } as const;
const auditLabels: Record<string, string> = { 'power.start': 'Server gestartet', 'power.stop': 'Server gestoppt', 'power.restart': 'Server neu gestartet' };

/** Staff read view of any customer's server with power actions; every action is logged with the staff member. */
export default function StaffServerDetailPage() {
  const { serverId = '' } = useParams();
  const server = useAdminServer(serverId);
  if (server.isPending) return <Spinner label="Lade Server …" />;
  if (server.isError) {
    if (server.error instanceof ApiRequestError && (server.error.status === 404 || server.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{server.error.message} <button type="button" className="underline" onClick={() => server.refetch()}>Erneut versuchen</button></Alert>;
  }
  return <ServerView detail={server.data} />;
}

function ServerView({ detail }: { detail: AdminServerDetail }) {
  const usage = useAdminServerUsage(detail.id, detail.status !== 'provisioning' && detail.status !== 'failed');
  const live = usage.data;
  return (
    <div className="mx-auto max-w-6xl">
      <PageMeta title={`Server ${formatVmId(detail.vmid)}`} />
      <Link to={paths.dashboard.staffServers} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Server-Management</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-bold text-slate-900">{detail.name}</h1>
            <ServerStatusBadge status={detail.status} />
          </div>
          <p className="mt-1 text-sm text-slate-600">Server-ID {formatVmId(detail.vmid)} · {detail.os}</p>
          {detail.statusMessage && detail.status !== 'online' && <p className="mt-2 text-sm text-red-700">{detail.statusMessage}</p>}
        </div>
        <PowerActions detail={detail} />
      </header>

      <div className="mt-6 grid gap-4 lg:grid-cols-3">
        <Card className="p-5">
          <h2 className="font-semibold text-slate-900">Kunde</h2>
          <Facts rows={[
            ['Kundennummer', String(detail.owner.customerNumber)],
            ['Benutzername', detail.owner.username],
            ['E-Mail', <a key="mail" className="inline-flex items-center gap-1 break-all text-brand-700 underline" href={`mailto:${detail.owner.email}`}><Mail className="size-4 shrink-0" aria-hidden="true" />{detail.owner.email}</a>],
          ]} />
        </Card>
        <Card className="p-5">
          <h2 className="font-semibold text-slate-900">Server</h2>
          <Facts rows={[
            ['Cluster', detail.node.name],
            ['IP-Adresse', <span key="ip" className="font-mono">{detail.ip ?? '–'}</span>],
            ['Ressourcen', `${detail.cpuCores} vCPU · ${detail.ramGb} GB RAM · ${detail.storageGb} GB`],
            ['Firewall', detail.firewallEnabled ? 'Aktiv' : 'Deaktiviert'],
            ['Erstellt am', date(detail.createdAt)],
          ]} />
        </Card>
        <Card className="p-5">
          <h2 className="font-semibold text-slate-900">Laufzeit</h2>
          {detail.createdBy ? (
            <div className="mt-3 space-y-1 text-sm text-slate-700">
              <p className="font-medium text-slate-900">Ohne Laufzeitende</p>
              <p>Manuell angelegt von <span className="font-medium">{detail.createdBy.username}</span>, nicht berechnet.</p>
              {detail.createdBy.reason && <p className="break-words">Grund: {detail.createdBy.reason}</p>}
            </div>
          ) : (
            <Facts rows={[
              ['Laufzeit bis', detail.expiresAt ? date(detail.expiresAt) : '–'],
              ['Gesperrt seit', detail.suspendedAt ? date(detail.suspendedAt) : '–'],
            ]} />
          )}
        </Card>
      </div>

      <Card className="mt-4 p-5">
        <h2 className="font-semibold text-slate-900">Auslastung</h2>
        {usage.isError ? (
          <p className="mt-3 text-sm text-slate-600">{usage.error.message}</p>
        ) : (
          <Facts columns rows={[
            ['CPU', live ? `${live.cpuUsage.toLocaleString('de-DE')} %` : '…'],
            ['Arbeitsspeicher', live ? `${(live.ramUsedMb / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} / ${Math.round(live.ramTotalMb / 1024)} GB` : '…'],
            ['Speicher', live ? `${live.storageUsedGb.toLocaleString('de-DE')} / ${live.storageTotalGb} GB` : '…'],
            ['Betriebszeit', live ? formatUptime(live.uptimeSeconds) : '…'],
          ]} />
        )}
      </Card>

      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card className="p-5">
          <h2 className="font-semibold text-slate-900">Vorgänge</h2>
          {detail.tasks.length === 0 ? <p className="mt-3 text-sm text-slate-600">Noch keine Vorgänge.</p> : (
            <ul className="mt-3 divide-y divide-slate-100" aria-label="Vorgänge">
              {detail.tasks.map((t, i) => (
                <li key={`${t.startedAt}-${i}`} className="py-2 text-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-medium text-slate-900">{taskLabels[t.kind] ?? t.kind}</span>
                    <span className={t.status === 'failed' ? 'text-red-700' : t.status === 'running' ? 'text-amber-700' : 'text-emerald-700'}>
                      {taskStatusLabels[t.status]}{t.status === 'running' ? ` (${t.progress} %)` : ''}
                    </span>
                  </div>
                  <p className="text-xs text-slate-600">{dateTime(t.startedAt)}{t.finishedAt ? ` – ${dateTime(t.finishedAt)}` : ''}</p>
                  {t.error && <p className="mt-1 break-words text-xs text-red-700">{t.error}</p>}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card className="p-5">
          <h2 className="font-semibold text-slate-900">Mitarbeiteraktionen</h2>
          {detail.audit.length === 0 ? <p className="mt-3 text-sm text-slate-600">Noch keine Aktionen von Mitarbeitern.</p> : (
            <ul className="mt-3 divide-y divide-slate-100" aria-label="Mitarbeiteraktionen">
              {detail.audit.map((a, i) => (
                <li key={`${a.at}-${i}`} className="py-2 text-sm">
                  <span className="font-medium text-slate-900">{auditLabels[a.action] ?? a.action}</span>
                  <p className="text-xs text-slate-600">{dateTime(a.at)} · {a.actor}</p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}

function Facts({ rows, columns }: { rows: [string, ReactNode][]; columns?: boolean }) {
  return (
    <dl className={columns ? 'mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4' : 'mt-3 space-y-2 text-sm'}>
      {rows.map(([label, value]) => (
        <div key={label} className={columns ? '' : 'flex flex-wrap justify-between gap-x-4'}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="min-w-0 font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function PowerActions({ detail }: { detail: AdminServerDetail }) {
  const power = useAdminPower(detail.id);
  const busy = !['online', 'offline', 'failed'].includes(detail.status) || power.isPending;
  const running = detail.status === 'online';
  const run = async (action: 'start' | 'stop' | 'restart') => {
    try {
      const res = await power.mutateAsync({ action });
      toast.info(res.message);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : 'Die Aktion ist fehlgeschlagen.', { duration: 7000 });
      throw err;
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" size="sm" disabled={busy || !running} onClick={() => void run('restart').catch(() => {})}><RotateCcw className="size-4" aria-hidden="true" /> Neustart</Button>
      {running ? (
        <ConfirmDialog
          trigger={<Button size="sm" variant="danger" disabled={busy}><Power className="size-4" aria-hidden="true" /> Stop</Button>}
          title="Server des Kunden stoppen?"
          description={`Server ${formatVmId(detail.vmid)} von ${detail.owner.username} wird sofort ausgeschaltet; nicht gespeicherte Daten gehen verloren. Die Aktion wird mit Ihrem Namen protokolliert.`}
          confirmLabel="Stoppen"
          onConfirm={() => run('stop')}
        />
      ) : (
        <Button size="sm" disabled={busy} onClick={() => void run('start').catch(() => {})}><Power className="size-4" aria-hidden="true" /> Start</Button>
      )}
    </div>
  );
}
