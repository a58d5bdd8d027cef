import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Trash2, UserPlus, Users } from 'lucide-react';
import { ShareInput, type HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useHostingShares, useShareHosting, useUnshareHosting } from '../api/access.ts';
import { errorText } from './format.ts';

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });

/** Sharing a package with other account holders, like servers: they operate it but see no billing. */
export function HostingAccessSection({ detail }: { detail: HostingDetail }) {
  const owner = detail.access === 'owner';
  const shares = useHostingShares(detail.id, owner);
  const unshare = useUnshareHosting(detail.id);
  const [adding, setAdding] = useState(false);
  return (
    <Card className="p-6" role="region" aria-labelledby="hosting-access-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="hosting-access-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Users className="size-5" aria-hidden="true" /> Zugriffsverwaltung</h2>
          <p className="mt-1 text-sm text-slate-600">Geteilte Benutzer können das Paket verwalten, sehen aber keine Abrechnungsdaten und können es nicht verlängern.</p>
        </div>
        {owner && <Button size="sm" onClick={() => setAdding(true)}><UserPlus className="size-4" aria-hidden="true" /> Benutzer hinzufügen</Button>}
      </div>
      {!owner ? (
        <Alert tone="info" className="mt-4">Dieses Paket wurde mit Ihnen geteilt. Freigaben verwaltet der Inhaber.</Alert>
      ) : shares.isPending ? (
        <div className="mt-4"><Spinner label="Lade Freigaben …" /></div>
      ) : shares.isError ? (
        <Alert tone="error" className="mt-4">{errorText(shares.error, 'Die Freigaben konnten nicht geladen werden.')}</Alert>
      ) : shares.data.items.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">Das Paket ist mit niemandem geteilt.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {shares.data.items.map((u) => (
            <li key={u.username} className="flex items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium text-slate-900">{u.username}</p>
                <p className="text-sm text-slate-600">Zugriff seit {berlinDate.format(new Date(u.since))}</p>
              </div>
              <ConfirmDialog
                trigger={<Button variant="ghost" size="sm" aria-label={`Zugriff von ${u.username} entfernen`}><Trash2 className="size-4" aria-hidden="true" /> Entfernen</Button>}
                title="Zugriff entfernen?"
                description={`${u.username} kann das Paket danach nicht mehr sehen oder verwalten.`}
                confirmLabel="Entfernen"
                onConfirm={() => unshare.mutateAsync(u.username).then(
                  () => toast.success(`Der Zugriff von ${u.username} wurde entfernt.`),
                  (err: unknown) => { toast.error(errorText(err, 'Der Zugriff konnte nicht entfernt werden.')); throw err; },
                )}
              />
            </li>
          ))}
        </ul>
      )}
      {adding && <AddUserDialog id={detail.id} onClose={() => setAdding(false)} />}
    </Card>
  );
}

function AddUserDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const share = useShareHosting(id);
  const form = useSchemaForm<ShareInput>({ resolver: zodResolver(ShareInput), defaultValues: { username: '' } });
  const submit = form.handleSubmit(async ({ username }) => {
    try {
      const res = await share.mutateAsync(username);
      toast.success(`Das Paket ist jetzt mit ${res.username} geteilt.`);
      onClose();
    } catch (err) {
      form.setError('username', { message: errorText(err, 'Der Zugriff konnte nicht freigegeben werden.') });
    }
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Benutzer hinzufügen" description="Geben Sie den Benutzernamen eines Kundenkontos ein, das das Paket mitverwalten soll.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Benutzername" autoComplete="off" error={form.formState.errors.username?.message} {...form.register('username')} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>Abbrechen</Button>
          <Button type="submit" loading={share.isPending}>Hinzufügen</Button>
        </div>
      </form>
    </Modal>
  );
}
