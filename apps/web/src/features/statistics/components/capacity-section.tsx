import type { NodeCapacity, ProductCapacity, Statistics, StatisticsResource } from '@hp/contract';
import { Card } from '../../../components/ui/card.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatCores, formatGb, formatPercent } from './format.ts';

type Kind = 'cpu' | 'ram' | 'storage';
const labels: Record<Kind, string> = { cpu: 'CPU-Kerne', ram: 'RAM', storage: 'Speicher' };
const amount = (kind: Kind, value: number) => (kind === 'cpu' ? formatCores(value) : formatGb(value));

/** A bar with an accessible name and value; an overbooked resource fills it and turns red. */
function Bar({ label, value, max, tone }: { label: string; value: number; max: number; tone: 'allocated' | 'used' }) {
  const ratio = max > 0 ? value / max : 0;
  const over = ratio > 1;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={`${formatPercent(ratio)}`}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={cn('h-full rounded-full', over ? 'bg-red-600' : tone === 'allocated' ? 'bg-brand-600' : 'bg-emerald-600')}
        style={{ width: `${Math.min(100, Math.round(ratio * 100))}%` }}
      />
    </div>
  );
}

function ResourceCard({ kind, r }: { kind: Kind; r: StatisticsResource }) {
  return (
    <Card className="space-y-3 p-4">
      <h3 className="font-semibold text-slate-900">{labels[kind]}</h3>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Physisch</dt><dd className="text-right font-medium text-slate-900">{amount(kind, r.physical)}</dd>
        <dt className="text-slate-600">Zugewiesen</dt><dd className="text-right font-medium text-slate-900">{amount(kind, r.allocated)}</dd>
        <dt className="text-slate-600">Frei</dt><dd className="text-right font-medium text-slate-900">{amount(kind, r.free)}</dd>
        <dt className="text-slate-600">Live genutzt</dt><dd className="text-right font-medium text-slate-900">{r.used === null ? 'unbekannt' : amount(kind, r.used)}</dd>
        <dt className="text-slate-600">Überbuchung</dt><dd className={cn('text-right font-medium', r.overcommit > 1 ? 'text-red-700' : 'text-slate-900')}>{formatPercent(r.overcommit)}</dd>
      </dl>
      <div className="space-y-1">
        <p className="text-xs text-slate-600">Zugewiesen {formatPercent(r.physical ? r.allocated / r.physical : 0)}</p>
        <Bar label={`${labels[kind]} zugewiesen`} value={r.allocated} max={r.physical} tone="allocated" />
      </div>
      {r.used !== null && (
        <div className="space-y-1">
          <p className="text-xs text-slate-600">Live genutzt {formatPercent(r.physical ? r.used / r.physical : 0)}</p>
          <Bar label={`${labels[kind]} live genutzt`} value={r.used} max={r.physical} tone="used" />
        </div>
      )}
    </Card>
  );
}

const statusLabels: Record<string, string> = { online: 'Online', offline: 'Offline', maintenance: 'Wartung', unknown: 'Unbekannt' };
const cell = (kind: Kind) => (n: NodeCapacity) => {
  const r = n[kind];
  return (
    <span className="flex flex-col gap-1">
      <span>{kind === 'cpu' ? `${r.allocated.toLocaleString('de-DE')} / ${formatCores(r.physical)}` : `${formatGb(r.allocated)} / ${formatGb(r.physical)}`}</span>
      <span className="text-xs text-slate-600">live: {r.used === null ? 'unbekannt' : amount(kind, r.used)}</span>
      <Bar label={`${labels[kind]} zugewiesen auf ${n.name}`} value={r.allocated} max={r.physical} tone="allocated" />
    </span>
  );
};

const columns: Column<NodeCapacity>[] = [
  { header: 'Knoten', rowHeader: true, cell: (n) => <span className="flex flex-col"><span>{n.name}</span><span className="text-xs font-normal text-slate-600">{statusLabels[n.status] ?? n.status}</span></span> },
  { header: 'CPU (zugewiesen / physisch)', headerClassName: 'whitespace-normal!', cell: cell('cpu') },
  { header: 'RAM', cell: cell('ram') },
  { header: 'Speicher', cell: cell('storage') },
  { header: 'Überbuchung', cell: (n) => <span className="flex flex-col"><span>CPU {formatPercent(n.cpu.overcommit)}</span><span>RAM {formatPercent(n.ram.overcommit)}</span></span> },
];

type ProductServer = ProductCapacity['servers'][number];

/** A product's own servers (cloud storage: quotas per storage server), as the product reports them. */
function ProductCapacityTable({ product }: { product: ProductCapacity }) {
  const amount = (v: number) => `${v.toLocaleString('de-DE')} ${product.unit}`;
  const productColumns: Column<ProductServer>[] = [
    { header: 'Server', rowHeader: true, cell: (s) => s.name },
    { header: 'Kapazität', cell: (s) => amount(s.capacity) },
    { header: 'Verkaufbar', cell: (s) => amount(s.sellable) },
    {
      header: 'Vergeben', cell: (s) => (
        <span className="flex flex-col gap-1">
          <span>{amount(s.allocated)} ({formatPercent(s.sellable > 0 ? s.allocated / s.sellable : 0)})</span>
          <Bar label={`${product.title}: vergeben auf ${s.name}`} value={s.allocated} max={s.sellable} tone="allocated" />
        </span>
      ),
    },
    { header: 'Konten', cell: (s) => s.count.toLocaleString('de-DE') },
  ];
  if (product.servers.length === 0) return <Card className="px-5 py-6 text-slate-700">{product.title}: Es sind noch keine Server angelegt.</Card>;
  return <DataTable caption={`${product.title}: Kapazität je Server`} columns={productColumns} rows={product.servers} rowKey={(s) => s.id} />;
}

export function CapacitySection({ capacity }: { capacity: Statistics['capacity'] }) {
  const products = (capacity.products ?? []).map((p) => <ProductCapacityTable key={p.kind} product={p} />);
  if (capacity.nodes.length === 0) {
    return (
      <div className="space-y-4">
        <Card className="px-5 py-8 text-center text-slate-700">Es sind noch keine physischen Server angelegt.</Card>
        {products}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {!capacity.liveAvailable && <p className="text-sm text-amber-800">Der Hypervisor ist gerade nicht erreichbar: Die Live-Auslastung fehlt.</p>}
      <div className="grid gap-4 md:grid-cols-3">
        <ResourceCard kind="cpu" r={capacity.total.cpu} />
        <ResourceCard kind="ram" r={capacity.total.ram} />
        <ResourceCard kind="storage" r={capacity.total.storage} />
      </div>
      <DataTable caption="Kapazität je Knoten" columns={columns} rows={capacity.nodes} rowKey={(n) => n.id} />
      {products}
    </div>
  );
}
