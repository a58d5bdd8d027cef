import { useState, type ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import * as Switch from '@radix-ui/react-switch';
import { AlertTriangle, ArrowLeft, Boxes, Globe, Network, Plus, RefreshCw, Scaling, Settings2, Trash2 } from 'lucide-react';
import { serverDetailPath, VdcNetworkInput, type PoolResource, type VdcDetail, type VdcVm } from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useAssignIp, useAttachIso, useDeleteVm, useJoinNetwork, useSetNetwork, useVdc } from '../api/vdcs.ts';
import { IsoLibrary } from './iso-library.tsx';
import { CreateVmDialog, missingForNewVm, ResizeVmDialog } from './vm-dialogs.tsx';
import { VdcStatusBadge, VmStatusBadge } from './status-badge.tsx';
import { errorText, formatBytes, formatCores, formatDate, formatGb } from './format.ts';

const DAY_MS = 86_400_000;
export const NETWORK_EXAMPLE = '10.20.0.0/24';

/**
 * A virtual data center (issue 25): the pool's use, its VMs (each opens the root server panel), the ISO
 * library, the private network and the public IPv4 addresses. Polls while anything is in progress.
 */
export default function VdcPage() {
  const { vdcId = '' } = useParams();
  const vdc = useVdc(vdcId);

  if (vdc.isPending) return <Spinner label="Virtual Data Center wird geladen …" />;
  if (vdc.isError) {
    if (vdc.error instanceof ApiRequestError && (vdc.error.status === 404 || vdc.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{vdc.error.message} <button type="button" className="underline" onClick={() => vdc.refetch()}>Erneut versuchen</button></Alert>;
  }
  const detail = vdc.data;
  const canChange = detail.status === 'active';

  return (
    <div className="mx-auto min-w-0 max-w-6xl">
      <PageMeta title={`Virtual Data Center ${detail.name}`} />
      <Link to={paths.dashboard.root} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Zur Übersicht</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-full">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-bold text-slate-900 [overflow-wrap:anywhere]">{detail.name}</h1>
            <span aria-live="polite"><VdcStatusBadge status={detail.status} /></span>
          </div>
          <p className="mt-1 text-sm text-slate-600">Virtual Data Center · VDC-ID {detail.number} · läuft bis {formatDate(detail.expiresAt)}</p>
        </div>
        {detail.status !== 'provisioning' && detail.status !== 'failed' && (
          <Link to={paths.shop.vdcRenew(detail.id)} className={buttonClass('outline', 'sm')}><RefreshCw className="size-4" aria-hidden="true" /> Verlängern / erweitern</Link>
        )}
      </header>
      <VdcState detail={detail} />

      <div className="mt-6 space-y-6">
        <PoolCard detail={detail} />
        <VmsCard detail={detail} canChange={canChange} />
        <IsoLibrary detail={detail} canChange={canChange} />
        <div className="grid gap-6 lg:grid-cols-2">
          <NetworkCard detail={detail} canChange={canChange} />
          <IpCard detail={detail} canChange={canChange} />
        </div>
      </div>
    </div>
  );
}

function VdcState({ detail }: { detail: VdcDetail }) {
  let content: ReactNode = null;
  if (detail.status === 'provisioning') {
    content = (
      <Alert tone="info" className="flex items-center gap-2">
        <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
        <span>Ihr Virtual Data Center wird eingerichtet. Das dauert meist nur einen Moment; diese Seite aktualisiert sich selbst.{detail.statusMessage ? ` ${detail.statusMessage}` : ''}</span>
      </Alert>
    );
  } else if (detail.status === 'failed') {
    content = <Alert tone="error">{detail.statusMessage ?? 'Die Einrichtung ist fehlgeschlagen.'} Die Zahlung wird automatisch erstattet; Sie erhalten dazu eine E-Mail.</Alert>;
  } else if (detail.status === 'suspended') {
    const deletion = detail.expiresAt ? new Date(new Date(detail.expiresAt).getTime() + detail.graceDays * DAY_MS).toISOString() : null;
    content = (
      <Alert tone="warning" className="flex gap-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">Ihr Virtual Data Center ist gesperrt; die VMs sind angehalten.{detail.statusMessage ? ` ${detail.statusMessage}` : ''}</p>
          <p className="mt-1">
            Wenn Sie es nicht verlängern, werden alle VMs, Images und Daten {detail.graceDays} Tage nach dem Laufzeitende gelöscht{deletion ? `, also am ${formatDate(deletion)}` : ''}.
            {' '}<Link to={paths.shop.vdcRenew(detail.id)} className="font-semibold underline">Jetzt verlängern</Link>
          </p>
        </div>
      </Alert>
    );
  }
  return <div className="mt-4 empty:hidden" aria-live="polite">{content}</div>;
}

// ── Pool ────────────────────────────────────────────────────────────────────────────────────────────

function PoolCard({ detail }: { detail: VdcDetail }) {
  const gb = (used: number, total: number) => `${used.toLocaleString('de-DE')} von ${formatGb(total)} belegt`;
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="vdc-pool-heading">
        <h2 id="vdc-pool-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Boxes className="size-5 text-brand-700" aria-hidden="true" /> Pool</h2>
        <div className="mt-4 grid gap-x-8 gap-y-5 sm:grid-cols-2 lg:grid-cols-3">
          <PoolBar label="vCPU" resource={detail.cpu} text={(u, t) => `${u} von ${t} Kernen belegt`} free={formatCores} />
          <PoolBar label="RAM" resource={detail.ramGb} text={gb} free={formatGb} />
          <PoolBar label="Speicher" resource={detail.storageGb} text={gb} free={formatGb} />
          <PoolBar label="IPv4" resource={detail.ipv4} text={(u, t) => `${u} von ${t} ${t === 1 ? 'Adresse' : 'Adressen'} vergeben`} free={(n) => `${n} ${n === 1 ? 'Adresse' : 'Adressen'}`} />
          <PoolBar label="ISO-Bibliothek" resource={detail.isoLibrary} text={(u, t) => `${formatBytes(u)} von ${formatBytes(t)} belegt`} free={formatBytes} />
          <PoolBar label="VMs" resource={{ used: detail.vmList.length, total: detail.maxVms }} text={(u, t) => `${u} von höchstens ${t} VMs`} free={(n) => `${n} ${n === 1 ? 'VM' : 'VMs'}`} />
        </div>
      </section>
    </Card>
  );
}

/** "used of total" as text and as a bar whose values a screen reader announces. */
export function PoolBar({ label, resource, text: describe, free: describeFree }: { label: string; resource: PoolResource; text: (used: number, total: number) => string; free: (n: number) => string }) {
  const percent = resource.total > 0 ? Math.min(100, Math.round((resource.used / resource.total) * 100)) : 0;
  const text = describe(resource.used, resource.total);
  const free = describeFree(Math.max(0, resource.total - resource.used));
  const id = `pool-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span id={id} className="text-sm font-medium text-slate-800">{label}</span>
        <span className="text-sm tabular-nums text-slate-700">{text}</span>
      </div>
      <div className="mt-2 h-2.5 rounded-full bg-slate-200" role="progressbar" aria-labelledby={id} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`${text} (${percent} %), frei: ${free}`}>
        <div className={`h-2.5 rounded-full transition-[width] ${percent >= 90 ? 'bg-amber-600' : 'bg-brand-600'}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">frei: {free}</p>
    </div>
  );
}

// ── VMs ─────────────────────────────────────────────────────────────────────────────────────────────

function freedText(vm: VdcVm) {
  const parts = [formatCores(vm.cpuCores), `${formatGb(vm.ramGb)} RAM`, `${formatGb(vm.diskGb)} Speicher`];
  const ip = vm.publicIpv4 ? ` Die IPv4-Adresse ${vm.publicIpv4} bleibt in Ihrem Pool und ist danach frei.` : '';
  return `Die VM und alle Daten auf ihrer Festplatte werden unwiderruflich gelöscht. Im Pool werden ${parts.join(', ')} frei.${ip}`;
}

function VmsCard({ detail, canChange }: { detail: VdcDetail; canChange: boolean }) {
  const [creating, setCreating] = useState(false);
  const [resizing, setResizing] = useState<VdcVm | null>(null);
  const remove = useDeleteVm(detail.id);
  const join = useJoinNetwork(detail.id);
  const attach = useAttachIso(detail.id);
  const missing = missingForNewVm(detail);
  const networkActive = detail.network.status === 'active';
  const readyIsos = detail.isos.filter((i) => i.status === 'ready');

  const toggleNetwork = async (vm: VdcVm, on: boolean) => {
    try {
      await join.mutateAsync({ vmId: vm.id, join: on });
      toast.success(on ? `${vm.name} wird mit dem privaten Netzwerk verbunden.` : `${vm.name} wird vom privaten Netzwerk getrennt.`);
    } catch (err) {
      toast.error(errorText(err, 'Das private Netzwerk konnte nicht geändert werden.'));
    }
  };
  const changeIso = async (vm: VdcVm, isoId: string | null) => {
    try {
      await attach.mutateAsync({ vmId: vm.id, isoId });
      toast.success(isoId ? `Das Image liegt im Laufwerk von ${vm.name}; die VM startet davon.` : `Das Laufwerk von ${vm.name} ist leer.`);
    } catch (err) {
      toast.error(errorText(err, 'Das Laufwerk konnte nicht geändert werden.'));
    }
  };

  const columns: Column<VdcVm>[] = [
    { header: 'Name', rowHeader: true, cell: (vm) => <span className="break-words">{vm.name}</span> },
    { header: 'Status', cell: (vm) => <VmStatusBadge status={vm.status} /> },
    { header: 'Ressourcen', cell: (vm) => `${formatCores(vm.cpuCores)} · ${formatGb(vm.ramGb)} RAM · ${formatGb(vm.diskGb)}` },
    {
      header: 'Adressen',
      cell: (vm) => (
        <div className="space-y-1">
          <p className="whitespace-nowrap"><span className="text-xs text-slate-600">IPv4 </span><span className="font-mono">{vm.publicIpv4 ?? '–'}</span></p>
          <div className="flex items-center justify-end gap-2 @3xl:justify-start">
            <span className="whitespace-nowrap"><span className="text-xs text-slate-600">Privat </span><span className="font-mono">{vm.privateAddress ?? '–'}</span></span>
            {networkActive && (
              <Switch.Root checked={vm.privateAddress !== null} disabled={!canChange || join.isPending} onCheckedChange={(on) => void toggleNetwork(vm, on)}
                aria-label={`${vm.name} mit dem privaten Netzwerk verbinden`}
                className="relative h-6 w-10 shrink-0 rounded-full bg-slate-300 transition-colors disabled:opacity-60 data-[state=checked]:bg-green-600">
                <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
              </Switch.Root>
            )}
          </div>
        </div>
      ),
    },
    {
      header: 'ISO-Laufwerk',
      // Stacked on a phone, the select moves below its label when both do not fit on one line, instead of
      // sticking out of the card or cutting the image's name to a few letters.
      className: '@max-3xl:flex-wrap [&>div]:ml-auto',
      cell: (vm) => (readyIsos.length === 0 && !vm.isoId ? '–' : (
        <Select aria-label={`ISO-Laufwerk von ${vm.name}`} value={vm.isoId ?? ''} disabled={!canChange || attach.isPending} className="min-w-36 max-w-full"
          onChange={(e) => void changeIso(vm, e.target.value || null)}>
          <option value="">leer</option>
          {detail.isos.filter((i) => i.status === 'ready' || i.id === vm.isoId).map((i) => <option key={i.id} value={i.id}>{i.name}</option>)}
        </Select>
      )),
    },
    {
      header: 'Aktionen',
      actions: true,
      cell: (vm) => (
        <div className="flex flex-wrap justify-end gap-2 @3xl:flex-nowrap">
          <Link to={serverDetailPath(vm.os, vm.id)} className={buttonClass('secondary', 'sm')} aria-label={`${vm.name} verwalten`}><Settings2 className="size-4" aria-hidden="true" /> Verwalten</Link>
          <Button size="sm" variant="outline" disabled={!canChange} onClick={() => setResizing(vm)} aria-label={`Größe von ${vm.name} ändern`} title="Größe ändern"><Scaling className="size-4" aria-hidden="true" /><span className="@3xl:sr-only">Größe ändern</span></Button>
          <ConfirmDialog
            title={`VM ${vm.name} löschen?`}
            description={freedText(vm)}
            confirmLabel="VM löschen"
            onConfirm={async () => {
              try {
                await remove.mutateAsync(vm.id);
                toast.success(`Die VM ${vm.name} wird gelöscht.`);
              } catch (err) {
                toast.error(errorText(err, 'Die VM konnte nicht gelöscht werden.'));
                throw err;
              }
            }}
            trigger={<Button size="sm" variant="outline" disabled={!canChange} aria-label={`${vm.name} löschen`} title="Löschen"><Trash2 className="size-4" aria-hidden="true" /><span className="@3xl:sr-only">Löschen</span></Button>}
          />
        </div>
      ),
    },
  ];

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="vdc-vms-heading">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="vdc-vms-heading" className="text-lg font-semibold text-slate-900">VMs</h2>
            <p className="mt-1 text-sm text-slate-600">Jede VM hat das Server-Panel eines Root Servers: Start und Stopp, Konsole, Neuinstallation, Firewall und Backups.</p>
          </div>
          <Button onClick={() => setCreating(true)} disabled={!canChange || missing !== null}><Plus className="size-4" aria-hidden="true" /> VM erstellen</Button>
        </div>
        {canChange && missing && <p className="mt-3 text-sm text-amber-800">{missing}</p>}
        <div className="mt-4">
          {detail.vmList.length === 0
            ? <p className="text-sm text-slate-600">Noch keine VMs. {canChange ? 'Erstellen Sie Ihre erste VM aus einer Linux-Vorlage oder einem eigenen ISO-Image.' : ''}</p>
            : <DataTable caption="VMs" columns={columns} rows={detail.vmList} rowKey={(vm) => vm.id} />}
        </div>
      </section>
      <CreateVmDialog detail={detail} open={creating} onOpenChange={setCreating} />
      <ResizeVmDialog detail={detail} vm={resizing} onClose={() => setResizing(null)} />
    </Card>
  );
}

// ── Private network ─────────────────────────────────────────────────────────────────────────────────

function NetworkCard({ detail, canChange }: { detail: VdcDetail; canChange: boolean }) {
  const { network } = detail;
  const setNetwork = useSetNetwork(detail.id);
  const [cidr, setCidr] = useState('');
  const [error, setError] = useState<string | null>(null);
  const joined = detail.vmList.filter((vm) => vm.privateAddress !== null).length;
  const editable = canChange && (network.status === 'none' || network.status === 'failed' || (network.status === 'active' && joined === 0));

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = VdcNetworkInput.safeParse({ cidr });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Bitte prüfen Sie den Adressbereich.');
    setError(null);
    try {
      await setNetwork.mutateAsync(parsed.data);
      toast.success(`Das private Netzwerk ${parsed.data.cidr} wird eingerichtet.`);
      setCidr('');
    } catch (err) {
      setError(errorText(err, 'Das private Netzwerk konnte nicht eingerichtet werden.'));
    }
  };

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="vdc-network-heading">
        <h2 id="vdc-network-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Network className="size-5 text-brand-700" aria-hidden="true" /> Privates Netzwerk</h2>
        <p className="mt-1 text-sm text-slate-600">Ein Netz nur zwischen Ihren VMs. Welche VM dazugehört, schalten Sie in der VM-Liste.</p>
        <div className="mt-3 text-sm" aria-live="polite">
          {network.status === 'none' && <p className="text-slate-700">Noch kein privates Netzwerk eingerichtet.</p>}
          {network.status === 'creating' && <p className="text-slate-700">Das Netzwerk {network.cidr} wird eingerichtet …</p>}
          {network.status === 'deleting' && <p className="text-slate-700">Das Netzwerk wird entfernt …</p>}
          {network.status === 'failed' && <Alert tone="error">Das Netzwerk {network.cidr ?? ''} konnte nicht eingerichtet werden. Bitte versuchen Sie es erneut.</Alert>}
          {network.status === 'active' && <p className="text-slate-700">Adressbereich: <span className="font-mono font-semibold text-slate-900">{network.cidr}</span> · {joined} {joined === 1 ? 'VM verbunden' : 'VMs verbunden'}</p>}
        </div>
        {editable && (
          <form onSubmit={save} noValidate className="mt-4 flex flex-wrap items-start gap-3">
            <Field label={network.status === 'active' ? 'Neuer Adressbereich' : 'Adressbereich (privat, CIDR)'} className="min-w-0 flex-1 basis-56" placeholder={`z. B. ${NETWORK_EXAMPLE}`}
              autoComplete="off" spellCheck={false} value={cidr} onChange={(e) => setCidr(e.target.value)} error={error ?? undefined}
              hint="10.0.0.0/8, 172.16.0.0/12 oder 192.168.0.0/16 mit einem Präfix von /16 bis /29." />
            <Button type="submit" className="sm:mt-7" loading={setNetwork.isPending}>{network.status === 'active' ? 'Bereich ändern' : 'Netzwerk einrichten'}</Button>
          </form>
        )}
      </section>
    </Card>
  );
}

// ── Public IPv4 ─────────────────────────────────────────────────────────────────────────────────────

function IpCard({ detail, canChange }: { detail: VdcDetail; canChange: boolean }) {
  const assign = useAssignIp(detail.id);
  const change = async (ipId: number, address: string, serverId: string | null) => {
    try {
      await assign.mutateAsync({ ipId, serverId });
      const vm = detail.vmList.find((v) => v.id === serverId);
      toast.success(vm ? `${address} ist jetzt ${vm.name} zugewiesen.` : `${address} ist keiner VM mehr zugewiesen.`);
    } catch (err) {
      toast.error(errorText(err, 'Die Adresse konnte nicht zugewiesen werden.'));
    }
  };
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="vdc-ips-heading">
        <h2 id="vdc-ips-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Globe className="size-5 text-brand-700" aria-hidden="true" /> Öffentliche IPv4-Adressen</h2>
        <p className="mt-1 text-sm text-slate-600">Jede Adresse gehört zu höchstens einer VM, und jede VM hat höchstens eine. Eine VM, die mit Adresse erstellt wird, erhält sie automatisch; eine später zugewiesene Adresse richtet die nächste Neuinstallation ein, bis dahin tragen Sie sie bitte selbst im Betriebssystem ein.</p>
        {detail.ipv4List.length === 0 ? <p className="mt-3 text-sm text-slate-700">Noch keine Adressen zugeteilt.</p> : (
          <ul className="mt-4 divide-y divide-slate-100" aria-label="IPv4-Adressen">
            {detail.ipv4List.map((ip) => (
              <li key={ip.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                <span className="font-mono text-sm font-semibold text-slate-900">{ip.address}</span>
                <Select aria-label={`Zuweisung von ${ip.address}`} value={ip.serverId ?? ''} disabled={!canChange || assign.isPending} className="w-full min-w-0 sm:w-56"
                  onChange={(e) => void change(ip.id, ip.address, e.target.value || null)}>
                  <option value="">nicht zugewiesen</option>
                  {detail.vmList.filter((vm) => vm.publicIpv4 === null || vm.id === ip.serverId).map((vm) => <option key={vm.id} value={vm.id}>{vm.name}</option>)}
                </Select>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}
