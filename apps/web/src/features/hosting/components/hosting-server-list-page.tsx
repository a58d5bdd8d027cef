import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { HostingServerInput, type HostingServerView } from '@hp/contract';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCreateHostingServer, useDeleteHostingServer, useHostingServers } from '../api/hosting-servers.ts';
import { SubPageHeader } from '../../../components/staff/sub-page-header.tsx';
import { AddRecordDialog, DeleteRecordButton } from '../../../components/staff/record-dialogs.tsx';

/** Hosting servers: servers of the web hosting panel and how many packages each may hold (decision 022). */
export default function HostingServerListPage() {
  const [adding, setAdding] = useState(false);
  const list = useHostingServers();
  return (
    <div className="mx-auto max-w-6xl">
      <SubPageHeader title="Hosting-Server" description="Server des Hosting-Panels mit ihren Plätzen für Webhosting-Pakete. Offene Bestellungen reservieren einen Platz, bis ihre Zahlungsfrist abläuft." addLabel="Hosting-Server hinzufügen" onAdd={() => setAdding(true)} />
      {list.isPending && <div className="mt-6"><Spinner label="Lade Hosting-Server …" /></div>}
      {list.isError && <Alert tone="error" className="mt-6">Die Hosting-Server konnten nicht geladen werden. <button type="button" className="font-medium underline" onClick={() => list.refetch()}>Erneut versuchen</button></Alert>}
      {list.data && (
        <>
          <p className="mt-4 text-sm text-slate-600">Panel: <span className="font-medium text-slate-800">{list.data.panel}</span></p>
          {list.data.items.length === 0
            ? <Card className="mt-4 p-8 text-center text-slate-600">Es sind noch keine Hosting-Server eingetragen. Ohne Hosting-Server kann der Shop kein Webhosting verkaufen.</Card>
            : <div className="mt-4"><DataTable caption="Hosting-Server" columns={columns} rows={list.data.items} rowKey={(s) => s.id} /></div>}
        </>
      )}
      <AddDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

const columns: Column<HostingServerView>[] = [
  { header: 'ID', rowHeader: true, cell: (s) => s.id },
  { header: 'Name', className: 'font-medium', cell: (s) => s.name },
  { header: 'Hostname', className: 'font-mono text-xs', cell: (s) => s.hostname },
  { header: 'Panel-Server-ID', cell: (s) => s.panelServerId },
  { header: 'Pakete (belegt/reserviert/Plätze)', cell: (s) => <span className="tabular-nums">{s.used} / {s.held} / {s.slots}</span> },
  { header: 'Aktionen', actions: true, className: 'text-right', cell: (s) => <DeleteButton server={s} /> },
];

function DeleteButton({ server }: { server: HostingServerView }) {
  const remove = useDeleteHostingServer();
  return (
    <DeleteRecordButton
      label={`Hosting-Server ${server.name} entfernen`}
      title="Hosting-Server entfernen?"
      description={`„${server.name}“ wird aus dem Shop genommen. Das geht nur, solange keine Hosting-Pakete darauf liegen.`}
      confirmLabel="Entfernen"
      remove={() => remove.mutateAsync(server.id)}
      removed={`Hosting-Server „${server.name}“ wurde entfernt.`}
    />
  );
}

function AddDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateHostingServer();
  const form = useSchemaForm<HostingServerInput>({ resolver: zodResolver(HostingServerInput), defaultValues: { name: '', hostname: '', panelServerId: '1', slots: 100 } });
  const errors = form.formState.errors;
  return (
    <AddRecordDialog open={open} onOpenChange={onOpenChange} form={form} create={create} created={(server) => `Hosting-Server „${server.name}“ wurde eingetragen.`}
      title="Hosting-Server hinzufügen" description="Ein Server, den Ihr Hosting-Panel bereits verwaltet (ISPConfig: System → Server). Neue Pakete werden auf den Server mit dem ersten freien Platz gelegt.">
      <Field label="Name" autoComplete="off" maxLength={60} error={errors.name?.message} {...form.register('name')} />
      <Field label="Hostname" autoComplete="off" placeholder="web1.example.com" error={errors.hostname?.message} {...form.register('hostname')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Server-ID im Panel" inputMode="numeric" autoComplete="off" error={errors.panelServerId?.message} {...form.register('panelServerId')} />
        <Field label="Plätze (Pakete)" type="number" min={1} inputMode="numeric" error={errors.slots?.message} {...form.register('slots', { valueAsNumber: true })} />
      </div>
    </AddRecordDialog>
  );
}
