import { useState } from 'react';
import { Link } from 'react-router';
import { Network, Plus, Server } from 'lucide-react';
import { formatVmId, type AdminServerRow } from '@hp/contract';
import { Button } from '../../components/ui/button.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { SearchField } from '../../components/ui/search-field.tsx';
import { DataTable, type Column } from '../../components/ui/table.tsx';
import { useAdminServers } from '../../features/infrastructure/api.ts';
import { AdminPageHeader, PAGE_SIZE } from '../../features/infrastructure/components/admin-page.tsx';
import { CreateServerDialog } from '../../features/infrastructure/components/create-server-dialog.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { ServerStatusBadge } from '../../features/infrastructure/components/status-badges.tsx';
import { useDebouncedValue } from '../../features/infrastructure/use-debounced-value.ts';
import { paths } from '../../config/paths.ts';

const linkClass = 'inline-flex h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2';

/** Spec "Virtual server administration": every customer's servers, with the add dialog for staff. */
export default function ServersPage() {
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const debounced = useDebouncedValue(search);
  const query = useAdminServers({ search: debounced, limit: PAGE_SIZE, offset });
  const items = query.data?.items ?? [];

  return (
    <div className="mx-auto max-w-6xl">
      <AdminPageHeader
        title="Server-Management"
        description="Alle virtuellen Server der Kunden. Neue Server werden sofort eingerichtet."
        actions={
          <>
            <Link to={paths.dashboard.physicalServers} className={linkClass}><Server className="size-4" aria-hidden="true" /> Physische Server</Link>
            <Link to={paths.dashboard.ipAddresses} className={linkClass}><Network className="size-4" aria-hidden="true" /> IP-Adressen</Link>
            <Button onClick={() => setAdding(true)}><Plus className="size-4" aria-hidden="true" /> Server hinzufügen</Button>
          </>
        }
      />

      <SearchField
        label="Server suchen"
        placeholder="Suche nach ID, Betriebssystem oder Besitzer …"
        className="mt-6 max-w-md"
        value={search}
        onChange={(e) => { setSearch(e.target.value); setOffset(0); }}
      />

      <div className="mt-4">
        <ListState
          query={query}
          isEmpty={!items.length}
          loadingLabel="Lade Server …"
          errorText="Die Server konnten nicht geladen werden."
          empty={debounced ? `Keine Server zu „${debounced}“ gefunden.` : 'Es sind noch keine virtuellen Server angelegt.'}
        >
          <DataTable caption="Virtuelle Server" columns={serverColumns} rows={items} rowKey={(server) => server.id} />
          <Pagination offset={offset} limit={PAGE_SIZE} total={query.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Server" />
        </ListState>
      </div>

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
