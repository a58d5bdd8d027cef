import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateNodeInput, infrastructureMessages, nodeStatuses, nodeStatusLabels, type NodeRow } from '@hp/contract';
import { Field } from '../../../components/ui/field.tsx';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { useCreateNode, useDeleteNode, useNodes } from '../api/nodes.ts';
import { SubPageHeader, errorMessage } from '../../../components/staff/sub-page-header.tsx';
import { AddRecordDialog, DeleteRecordButton } from '../../../components/staff/record-dialogs.tsx';
import { NodeStatusBadge } from './status-badges.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';

/** Physical servers (Proxmox nodes) with their capacity and what the virtual servers use of it. */
export default function NodeListPage() {
  const [adding, setAdding] = useState(false);

  return (
    <div className="mx-auto max-w-6xl">
      <SubPageHeader title="Physische Server" description="Proxmox-Nodes mit Kapazität und Auslastung durch virtuelle Server." addLabel="Physischen Server hinzufügen" onAdd={() => setAdding(true)} />

      <ListPage
        useList={useNodes}
        search={{ label: 'Physische Server suchen', placeholder: 'Suche nach ID, Name oder IP …' }}
        filters={[{ param: 'status', label: 'Status', allLabel: 'Alle Status', options: nodeStatuses.map((s) => ({ value: s, label: nodeStatusLabels[s] })) }]}
        sortOptions={[
          { value: 'id', label: 'ID' },
          { value: 'name', label: 'Name (A–Z)' },
          { value: '-name', label: 'Name (Z–A)' },
          { value: 'host', label: 'IP / Host' },
          { value: 'status', label: 'Status' },
        ]}
        table={{ caption: 'Physische Server', columns: nodeColumns, rowKey: (node) => node.id }}
        texts={{
          loading: 'Lade physische Server …',
          error: 'Die physischen Server konnten nicht geladen werden.',
          empty: 'Es sind noch keine physischen Server eingetragen.',
          noMatch: (q) => `Keine physischen Server zu „${q}“ gefunden.`,
          pagination: 'Seiten der physischen Server',
        }}
      />

      <AddNodeDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

function Usage({ used, total, unit }: { used: number; total: number; unit: string }) {
  const percent = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return (
    <div className="min-w-28">
      <span className="whitespace-nowrap">{used} / {total}{unit}</span>
      <div className="mt-1 h-1.5 w-full rounded-full bg-slate-200" aria-hidden="true">
        <div className={percent >= 90 ? 'h-1.5 rounded-full bg-red-600' : percent >= 70 ? 'h-1.5 rounded-full bg-amber-500' : 'h-1.5 rounded-full bg-brand-600'} style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

const nodeColumns: Column<NodeRow>[] = [
  { header: 'ID', rowHeader: true, cell: (node) => node.id },
  { header: 'Name', className: 'font-medium', cell: (node) => node.name },
  { header: 'Status', cell: (node) => <NodeStatusBadge status={node.status} /> },
  { header: 'CPU (belegt/gesamt)', cell: (node) => <Usage used={node.used.cpuCores} total={node.cpuCores} unit=" Kerne" /> },
  { header: 'RAM', cell: (node) => <Usage used={node.used.ramGb} total={node.ramGb} unit=" GB" /> },
  { header: 'Speicher', cell: (node) => <Usage used={node.used.storageGb} total={node.storageGb} unit=" GB" /> },
  { header: 'IP / Host', className: 'font-mono text-xs', cell: (node) => node.host },
  { header: 'Aktionen', actions: true, className: 'text-right', cell: (node) => <DeleteNodeButton node={node} /> },
];

function DeleteNodeButton({ node }: { node: NodeRow }) {
  const deleteNode = useDeleteNode();
  return (
    <DeleteRecordButton
      label={`Physischen Server ${node.name} löschen`}
      title="Physischen Server löschen?"
      description={`„${node.name}“ wird aus der Verwaltung entfernt. Das geht nur, solange keine virtuellen Server darauf liegen.`}
      remove={() => deleteNode.mutateAsync(node.id)}
      removed={`Physischer Server „${node.name}“ wurde gelöscht.`}
    />
  );
}

function AddNodeDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const createNode = useCreateNode();
  const form = useSchemaForm<CreateNodeInput>({ resolver: zodResolver(CreateNodeInput), defaultValues: { name: '', host: '', cpuCores: 32, ramGb: 128, storageGb: 2000 } });
  const errors = form.formState.errors;
  return (
    <AddRecordDialog open={open} onOpenChange={onOpenChange} form={form} create={createNode} created={(node) => `Physischer Server „${node.name}“ wurde angelegt.`}
      failed={(err) => infrastructureMessages.serverMessage(errorMessage(err))}
      title="Physischen Server hinzufügen" description="Neue Server erhalten den Status „Unbekannt“, bis der Host erreichbar gemeldet wird.">
      <Field label="Node-Name (wie in Proxmox)" autoComplete="off" maxLength={63} error={errors.name?.message} {...form.register('name')} />
      <Field label="IP-Adresse oder Hostname" autoComplete="off" error={errors.host?.message} {...form.register('host')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="CPU-Kerne" type="number" min={1} inputMode="numeric" error={errors.cpuCores?.message} {...form.register('cpuCores', { valueAsNumber: true })} />
        <Field label="RAM (GB)" type="number" min={1} inputMode="numeric" error={errors.ramGb?.message} {...form.register('ramGb', { valueAsNumber: true })} />
        <Field label="Speicher (GB)" type="number" min={1} inputMode="numeric" error={errors.storageGb?.message} {...form.register('storageGb', { valueAsNumber: true })} />
      </div>
    </AddRecordDialog>
  );
}
