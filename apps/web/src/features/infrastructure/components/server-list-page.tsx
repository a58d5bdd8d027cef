import { useState } from 'react';
import { Link } from 'react-router';
import { Boxes, Cloud, Network, Plus, Server, Globe } from 'lucide-react';
import { adminServerStatuses, adminServerStatusLabels, formatVmId, type AdminServerRow } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { useAdminServers } from '../api/admin-servers.ts';
import { CreateServerDialog } from './create-server-dialog.tsx';
import { ServerStatusBadge } from './status-badges.tsx';
import { paths } from '../../../config/paths.ts';

const linkClass = 'inline-flex h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2';

/** Spec "Virtual server administration": every customer's servers, with the add dialog for staff. */
export default function ServerListPage() {
  const [adding, setAdding] = useState(false);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Server-Management"
        description="Alle virtuellen Server der Kunden. Neue Server werden sofort eingerichtet."
        actions={
          <>
            <Link to={paths.dashboard.physicalServers} className={linkClass}><Server className="size-4" aria-hidden="true" /> Physische Server</Link>
            <Link to={paths.dashboard.hostingServers} className={linkClass}><Globe className="size-4" aria-hidden="true" /> Hosting-Server</Link>
            <Link to={paths.dashboard.storageServers} className={linkClass}><Cloud className="size-4" aria-hidden="true" /> Speicher-Server</Link>
            <Link to={paths.dashboard.vdcs} className={linkClass}><Boxes className="size-4" aria-hidden="true" /> Virtual Data Center</Link>
            <Link to={paths.dashboard.ipAddresses} className={linkClass}><Network className="size-4" aria-hidden="true" /> IP-Adressen</Link>
            <Button onClick={() => setAdding(true)}><Plus className="size-4" aria-hidden="true" /> Server hinzufügen</Button>
          </>
        }
      />

      <ListPage
        useList={useAdminServers}
        search={{ label: 'Server suchen', placeholder: 'Suche nach ID, Betriebssystem oder Besitzer …' }}
        filters={[{ param: 'status', label: 'Status', allLabel: 'Alle Status', options: adminServerStatuses.map((s) => ({ value: s, label: adminServerStatusLabels[s] })) }]}
        sortOptions={[
          { value: '-vmid', label: 'Neueste zuerst' },
          { value: 'vmid', label: 'Älteste zuerst' },
          { value: 'status', label: 'Status' },
          { value: 'os', label: 'Betriebssystem' },
          { value: 'owner', label: 'Besitzer' },
          { value: 'node', label: 'Cluster' },
        ]}
        table={{ caption: 'Virtuelle Server', columns: serverColumns, rowKey: (server) => server.id }}
        texts={{
          loading: 'Lade Server …',
          error: 'Die Server konnten nicht geladen werden.',
          empty: 'Es sind noch keine virtuellen Server angelegt.',
          noMatch: (q) => `Keine Server zu „${q}“ gefunden.`,
          pagination: 'Seiten der Server',
        }}
      />

      <CreateServerDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

const serverColumns: Column<AdminServerRow>[] = [
  { header: 'ID', rowHeader: true, className: 'font-mono', cell: (server) => formatVmId(server.vmid) },
  {
    header: 'Status',
    cell: (server) => (
      <>
        <ServerStatusBadge status={server.status} title={server.statusMessage ?? undefined} />
        {server.status === 'failed' && server.statusMessage && <p className="mt-1 max-w-56 text-xs text-red-700">{server.statusMessage}</p>}
      </>
    ),
  },
  { header: 'vCPU', cell: (server) => server.cpuCores },
  { header: 'RAM', className: 'whitespace-nowrap', cell: (server) => `${server.ramGb} GB` },
  { header: 'Speicher', className: 'whitespace-nowrap', cell: (server) => `${server.storageGb} GB` },
  { header: 'Betriebssystem', className: 'whitespace-nowrap', cell: (server) => server.os },
  {
    header: 'Besitzer',
    cell: (server) => (
      <>
        <span className="block font-medium">{server.owner.customerNumber}</span>
        <span className="block text-xs text-slate-600">{server.owner.username}</span>
      </>
    ),
  },
  { header: 'Cluster', className: 'whitespace-nowrap', cell: (server) => server.node.name },
  { header: 'IP', className: 'font-mono text-xs', cell: (server) => server.ip ?? '–' },
  {
    header: 'Aktionen',
    actions: true,
    cell: (server) => <Link to={paths.dashboard.staffServer(server.id)} className="font-medium text-brand-700 underline" aria-label={`Details zu Server ${formatVmId(server.vmid)}`}>Details</Link>,
  },
];
