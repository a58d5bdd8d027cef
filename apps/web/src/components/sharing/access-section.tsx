import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Trash2, UserPlus, Users } from 'lucide-react';
import { ShareInput, type ShareResult } from '@hp/contract';
import { Button } from '../ui/button.tsx';
import { Alert, Card, Spinner } from '../ui/card.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Field } from '../ui/field.tsx';
import { Modal } from '../ui/modal.tsx';
import { useSchemaForm } from '../../lib/forms.ts';

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });

/** The words that differ between the things that can be shared (a server, a hosting package). */
export interface AccessLabels {
  /** Under the heading: what shared users may and may not do. */
  intro: string;
  /** Shown instead of the list to a user it was shared with (only the owner manages access). */
  sharedNote: string;
  empty: string;
  /** The add dialog's description. */
  addDescription: string;
  /** The remove confirmation's description. */
  removeDescription: (username: string) => string;
  /** Success toasts. */
  shared: (username: string) => string;
  unshared: (username: string) => string;
}

export interface AccessSectionProps {
  /** The heading's id, which names the region. */
  headingId: string;
  labels: AccessLabels;
  /** Only the owner adds and removes users; others see `labels.sharedNote`. */
  canManage: boolean;
  /** The users with access; `undefined` while they load. */
  shares: readonly ShareResult[] | undefined;
  /** Shown instead of the list when it could not be loaded. */
  loadError?: string;
  share: Pick<UseMutationResult<ShareResult, Error, string>, 'mutateAsync' | 'isPending'>;
  unshare: Pick<UseMutationResult<unknown, Error, string>, 'mutateAsync'>;
  /** The feature's reading of an API error: its German message, or the fallback. */
  errorText: (err: unknown, fallback: string) => string;
}

/** "Zugriffsverwaltung": the owner shares something with other customer accounts and takes it back. */
export function AccessSection({ headingId, labels, canManage, shares, loadError, share, unshare, errorText }: AccessSectionProps) {
  const [adding, setAdding] = useState(false);
  return (
    <Card className="p-6" role="region" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Users className="size-5" aria-hidden="true" /> Zugriffsverwaltung</h2>
          <p className="mt-1 text-sm text-slate-600">{labels.intro}</p>
        </div>
        {canManage && <Button size="sm" onClick={() => setAdding(true)}><UserPlus className="size-4" aria-hidden="true" /> Benutzer hinzufügen</Button>}
      </div>
      {!canManage ? (
        <Alert tone="info" className="mt-4">{labels.sharedNote}</Alert>
      ) : loadError !== undefined ? (
        <Alert tone="error" className="mt-4">{loadError}</Alert>
      ) : shares === undefined ? (
        <div className="mt-4"><Spinner label="Lade Freigaben …" /></div>
      ) : shares.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">{labels.empty}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
          {shares.map((u) => (
            <li key={u.username} className="flex items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="break-all font-medium text-slate-900">{u.username}</p>
                <p className="text-sm text-slate-600">Zugriff seit {berlinDate.format(new Date(u.since))}</p>
              </div>
              <ConfirmDialog
                trigger={<Button variant="ghost" size="sm" aria-label={`Zugriff von ${u.username} entfernen`}><Trash2 className="size-4" aria-hidden="true" /> Entfernen</Button>}
                title="Zugriff entfernen?"
                description={labels.removeDescription(u.username)}
                confirmLabel="Entfernen"
                onConfirm={() => unshare.mutateAsync(u.username).then(
                  () => toast.success(labels.unshared(u.username)),
                  (err: unknown) => { toast.error(errorText(err, 'Der Zugriff konnte nicht entfernt werden.')); throw err; },
                )}
              />
            </li>
          ))}
        </ul>
      )}
      {adding && <AddUserDialog labels={labels} share={share} errorText={errorText} onClose={() => setAdding(false)} />}
    </Card>
  );
}

function AddUserDialog({ labels, share, errorText, onClose }: Pick<AccessSectionProps, 'labels' | 'share' | 'errorText'> & { onClose: () => void }) {
  const form = useSchemaForm<ShareInput>({ resolver: zodResolver(ShareInput), defaultValues: { username: '' } });
  const submit = form.handleSubmit(async ({ username }) => {
    try {
      const res = await share.mutateAsync(username);
      toast.success(labels.shared(res.username));
      onClose();
    } catch (err) {
      form.setError('username', { message: errorText(err, 'Der Zugriff konnte nicht freigegeben werden.') });
    }
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Benutzer hinzufügen" description={labels.addDescription}>
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
