import { useState } from 'react';
import { Link } from 'react-router';
import { Network, Plus, Server } from 'lucide-react';
import { formatVmId, type AdminServerRow } from '@hp/contract';
import { Button } from '../../components/ui/button.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { SearchField } from '../../components/ui/search-field.tsx';
import { RowHeader, Table, Td, Th, Tr } from '../../components/ui/table.tsx';
import { useAdminServers } from '../../features/infrastructure/api.ts';
import { AdminPageHeader, PAGE_SIZE } from '../../features/infrastructure/components/admin-page.tsx';
import { CreateServerDialog } from '../../features/infrastructure/components/create-server-dialog.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { ServerStatusBadge } from '../../features/infrastructure/components/status-badges.tsx';
import { useDebouncedValue } from '../../features/infrastructure/use-debounced-value.ts';

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
            <Link to="/dashboard/physical-servers" className={linkClass}><Server className="size-4" aria-hidden="true" /> Physische Server</Link>
            <Link to="/dashboard/ipaddressmanagement" className={linkClass}><Network className="size-4" aria-hidden="true" /> IP-Adressen</Link>
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
          <Table caption="Virtuelle Server">
            <thead>
              <tr>
                <Th>ID</Th><Th>Status</Th><Th>vCPU</Th><Th>RAM</Th><Th>Speicher</Th><Th>Betriebssystem</Th><Th>Besitzer</Th><Th>Cluster</Th><Th>IP</Th><Th><span className="sr-only">Aktionen</span></Th>
              </tr>
            </thead>
            <tbody>
              {items.map((server) => <ServerTableRow key={server.id} server={server} />)}
            </tbody>
          </Table>
          <Pagination offset={offset} limit={PAGE_SIZE} total={query.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Server" />
        </ListState>
      </div>

      <CreateServerDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

function ServerTableRow({ server }: { server: AdminServerRow }) {
  return (
    <Tr>
      <RowHeader className="font-mono">{formatVmId(server.vmid)}</RowHeader>
      <Td>
        <ServerStatusBadge status={server.status} title={server.statusMessage ?? undefined} />
        {server.status === 'failed' && server.statusMessage && <p className="mt-1 max-w-56 text-xs text-red-700">{server.statusMessage}</p>}
      </Td>
      <Td>{server.cpuCores}</Td>
      <Td className="whitespace-nowrap">{server.ramGb} GB</Td>
      <Td className="whitespace-nowrap">{server.storageGb} GB</Td>
      <Td className="whitespace-nowrap">{server.os}</Td>
      <Td>
        <span className="block font-medium">{server.owner.customerNumber}</span>
        <span className="block text-xs text-slate-600">{server.owner.username}</span>
      </Td>
      <Td className="whitespace-nowrap">{server.node.name}</Td>
      <Td className="font-mono text-xs">{server.ip ?? '–'}</Td>
      <Td><Link to={`/dashboard/servers/${server.id}`} className="font-medium text-brand-700 underline" aria-label={`Details zu Server ${formatVmId(server.vmid)}`}>Details</Link></Td>
    </Tr>
  );
}
