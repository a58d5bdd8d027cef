import { Link } from 'react-router';
import { VDC_STATUS, VDC_STATUS_LABEL, type AdminVdcRow } from '@hp/contract';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useAdminVdcs } from '../api/admin-vdcs.ts';
import { VdcStatusBadge } from './status-badge.tsx';
import { formatDate } from './format.ts';

const used = (r: { used: number; total: number }, unit = '') => `${r.used.toLocaleString('de-DE')} / ${r.total.toLocaleString('de-DE')}${unit}`;

const columns: Column<AdminVdcRow>[] = [
  {
    header: 'VDC',
    rowHeader: true,
    cell: (v) => (
      <>
        <span className="block">{v.name}</span>
        <span className="block font-mono text-xs font-normal text-slate-600">VDC-ID {v.number}</span>
      </>
    ),
  },
  {
    header: 'Status',
    cell: (v) => (
      <>
        <VdcStatusBadge status={v.status} />
        {v.status === 'failed' && v.statusMessage && <p className="mt-1 max-w-56 text-xs text-red-700">{v.statusMessage}</p>}
      </>
    ),
  },
  {
    header: 'Besitzer',
    cell: (v) => (
      <Link to={paths.dashboard.customerDetails(v.owner.id)} className="text-brand-700 underline" aria-label={`Kunde ${v.owner.customerNumber} (${v.owner.username})`}>
        <span className="block font-medium">{v.owner.customerNumber}</span>
        <span className="block text-xs">{v.owner.username}</span>
      </Link>
    ),
  },
  { header: 'Cluster', className: 'whitespace-nowrap', cell: (v) => v.node.name },
  { header: 'vCPU', className: 'whitespace-nowrap', cell: (v) => used(v.cpu) },
  { header: 'RAM', className: 'whitespace-nowrap', cell: (v) => used(v.ramGb, ' GB') },
  { header: 'Speicher', className: 'whitespace-nowrap', cell: (v) => used(v.storageGb, ' GB') },
  { header: 'IPv4', className: 'whitespace-nowrap', cell: (v) => used(v.ipv4) },
  { header: 'VMs', cell: (v) => v.vms },
  { header: 'Läuft bis', className: 'whitespace-nowrap', cell: (v) => formatDate(v.expiresAt) },
];

/**
 * Staff: every customer's virtual data centers (issue 25) with the pool's use (used / total) on its node.
 * Each VM is a server row and opens from the server management like a root server.
 */
export default function VdcListPage() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Virtual Data Center" description="Alle Ressourcen-Pools der Kunden mit ihrer Belegung (belegt / gebucht). Die VMs eines Pools finden Sie im Server-Management." />
      <ListPage
        useList={useAdminVdcs}
        search={{ label: 'Virtual Data Center suchen', placeholder: 'Suche nach VDC-ID, Name oder Besitzer …' }}
        filters={[{ param: 'status', label: 'Status', allLabel: 'Alle Status', options: VDC_STATUS.map((s) => ({ value: s, label: VDC_STATUS_LABEL[s] })) }]}
        sortOptions={[
          { value: '-number', label: 'Neueste zuerst' },
          { value: 'number', label: 'Älteste zuerst' },
          { value: 'name', label: 'Name' },
          { value: 'status', label: 'Status' },
          { value: 'owner', label: 'Besitzer' },
          { value: 'node', label: 'Cluster' },
          { value: 'expiresAt', label: 'Laufzeitende' },
        ]}
        table={{ caption: 'Virtual Data Center', columns, rowKey: (v) => v.id }}
        texts={{
          loading: 'Lade Virtual Data Center …',
          error: 'Die Virtual Data Center konnten nicht geladen werden.',
          empty: 'Es gibt noch kein Virtual Data Center.',
          noMatch: (q) => `Kein Virtual Data Center zu „${q}“ gefunden.`,
          pagination: 'Seiten der Virtual Data Center',
        }}
      />
    </div>
  );
}
