import { useState } from 'react';
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { StorageServerInput, type StorageServerView } from '@hp/contract';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useSession } from '../../../lib/session.ts';
import { useCreateStorageServer, useDeleteStorageServer, useStorageServers } from '../api/storage-servers.ts';
import { SubPageHeader } from '../../../components/staff/sub-page-header.tsx';
import { AddRecordDialog, DeleteRecordButton } from '../../../components/staff/record-dialogs.tsx';

const gb = (n: number) => `${n.toLocaleString('de-DE')} GB`;
const overcommitText = (n: number) => n.toLocaleString('de-DE', { maximumFractionDigits: 2 });

/** Storage servers: the Nextcloud servers cloud storage accounts are placed on, with their space (issue 23). */
export default function StorageServerListPage() {
  const [adding, setAdding] = useState(false);
  const list = useStorageServers();
  // Entering a server hands it the Nextcloud admin's app password: only the owner does that (decision 034).
  const owner = useSession().claims?.role === 'owner';
  return (
    <div className="mx-auto max-w-6xl">
      <SubPageHeader title="Speicher-Server" description="Nextcloud-Server für Cloud-Speicher. Ein neues Konto kommt auf einen Server, dessen verkaufbarer Platz für das Kontingent reicht; offene Bestellungen reservieren ihr Kontingent, bis ihre Zahlungsfrist abläuft." addLabel="Speicher-Server hinzufügen" {...(owner ? { onAdd: () => setAdding(true) } : {})} />
      {list.isPending && <div className="mt-6"><Spinner label="Lade Speicher-Server …" /></div>}
      {list.isError && <Alert tone="error" className="mt-6">Die Speicher-Server konnten nicht geladen werden. <button type="button" className="font-medium underline" onClick={() => list.refetch()}>Erneut versuchen</button></Alert>}
      {list.data && (
        <>
          <p className="mt-4 text-sm text-slate-600">Überbuchungsfaktor: <span className="font-medium text-slate-800">{overcommitText(list.data.overcommit)}</span> (verkaufbar = Kapazität × Faktor)</p>
          {list.data.items.length === 0
            ? <Card className="mt-4 p-8 text-center text-slate-600">Es sind noch keine Speicher-Server eingetragen. Ohne Speicher-Server kann der Shop keinen Cloud-Speicher verkaufen.</Card>
            : <div className="mt-4"><DataTable caption="Speicher-Server" columns={owner ? columns : columns.slice(0, -1)} rows={list.data.items} rowKey={(s) => s.id} /></div>}
        </>
      )}
      {!owner && <p className="mt-4 text-sm text-slate-600">Speicher-Server trägt der Inhaber ein: Der Server erhält dabei die Zugangsdaten des Nextcloud-Administrators.</p>}
      {owner && <AddDialog open={adding} onOpenChange={setAdding} />}
    </div>
  );
}

const columns: Column<StorageServerView>[] = [
  { header: 'ID', rowHeader: true, cell: (s) => s.id },
  { header: 'Name', className: 'font-medium', cell: (s) => s.name },
  { header: 'Adresse', className: 'font-mono text-xs break-all', cell: (s) => s.url },
  { header: 'Kapazität', cell: (s) => <span className="tabular-nums">{gb(s.capacityGb)}</span> },
  { header: 'Verkaufbar', cell: (s) => <span className="tabular-nums">{gb(s.sellableGb)}</span> },
  { header: 'Vergeben', cell: (s) => <Allocated server={s} /> },
  { header: 'Konten', cell: (s) => <span className="tabular-nums">{s.accounts}</span> },
  { header: 'Aktionen', actions: true, className: 'text-right', cell: (s) => <DeleteButton server={s} /> },
];

function Allocated({ server: s }: { server: StorageServerView }) {
  const percent = s.sellableGb > 0 ? Math.round((s.allocatedGb / s.sellableGb) * 100) : 0;
  return <span className={percent >= 90 ? 'font-medium tabular-nums text-red-700' : 'tabular-nums'}>{gb(s.allocatedGb)} ({percent} %)</span>;
}

function DeleteButton({ server }: { server: StorageServerView }) {
  const remove = useDeleteStorageServer();
  return (
    <DeleteRecordButton
      label={`Speicher-Server ${server.name} entfernen`}
      title="Speicher-Server entfernen?"
      description={`„${server.name}“ wird aus dem Shop genommen. Das geht nur, solange keine Konten darauf liegen.`}
      confirmLabel="Entfernen"
      remove={() => remove.mutateAsync(server.id)}
      removed={`Speicher-Server „${server.name}“ wurde entfernt.`}
    />
  );
}

function AddDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateStorageServer();
  // The fingerprint's default only fills an omitted field; the form always has one, so input and output match.
  const form = useSchemaForm<StorageServerInput>({ resolver: zodResolver(StorageServerInput) as Resolver<StorageServerInput>, defaultValues: { name: '', url: '', capacityGb: 1000, fingerprint: '' } });
  const errors = form.formState.errors;
  return (
    <AddRecordDialog open={open} onOpenChange={onOpenChange} form={form} create={create} created={(server) => `Speicher-Server „${server.name}“ wurde eingetragen.`}
      title="Speicher-Server hinzufügen" description="Ein Nextcloud-Server, auf dem das Portal Konten anlegt. Der Zugang (Administrator und App-Passwort) ist in der Server-Konfiguration hinterlegt.">
      <Field label="Name" autoComplete="off" maxLength={64} error={errors.name?.message} {...form.register('name')} />
      <Field label="Adresse" autoComplete="off" placeholder="https://cloud1.example.com" inputMode="url" error={errors.url?.message} {...form.register('url')} />
      <Field label="Kapazität für Kundendateien (GB)" type="number" min={100} inputMode="numeric" error={errors.capacityGb?.message} {...form.register('capacityGb', { valueAsNumber: true })} />
      <Field label="SHA-256-Fingerabdruck des Zertifikats (optional)" autoComplete="off" spellCheck={false} placeholder="AB:CD:…" hint="Nur für ein selbst signiertes Zertifikat; leer lassen für die normale Zertifikatsprüfung."
        error={errors.fingerprint?.message} {...form.register('fingerprint')} />
    </AddRecordDialog>
  );
}
