import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Copy, Eye, EyeOff, KeyRound, ShieldCheck } from 'lucide-react';
import { CreateTicketSecretInput, ticketMessages as m, type TicketSecret } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field, inputClass } from '../../../components/ui/field.tsx';
import { cn } from '../../../lib/cn.ts';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useAddOwnSecret, useOwnSecrets } from '../api/tickets.ts';
import { useOpenStaffSecret, useStaffSecrets } from '../api/staff-tickets.ts';
import { formatDateTime } from './ticket-badges.tsx';

const EXPLANATION = 'Wird verschlüsselt gespeichert, nur vom Support eingesehen (jede Einsicht wird protokolliert), nie per E-Mail versendet und beim Schließen des Tickets gelöscht.';

function SecretState({ secret }: { secret: TicketSecret }) {
  return secret.wiped
    ? <span className="text-slate-600">gelöscht</span>
    : <span className="inline-flex items-center gap-1 text-emerald-800"><ShieldCheck className="size-4" aria-hidden="true" /> verschlüsselt hinterlegt</span>;
}

/** The customer's side: hand over a secret (never shown back), see what was handed over. */
export function CustomerSecretsCard({ ticketId, closed }: { ticketId: string; closed: boolean }) {
  const secrets = useOwnSecrets(ticketId, true);
  const [open, setOpen] = useState(false);
  const list = secrets.data?.secrets ?? [];
  if (closed && list.length === 0) return null;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex items-center gap-2 font-semibold text-slate-900"><KeyRound className="size-4" aria-hidden="true" /> Vertrauliche Angaben</h2>
          <p className="mt-1 text-sm text-slate-600">Zugangsdaten wie ein Root-Passwort bitte nur hier, nicht im Chat. {EXPLANATION}</p>
        </div>
        {!closed && <Button variant="outline" size="sm" onClick={() => setOpen(true)}>Vertrauliche Angabe hinterlegen</Button>}
      </div>
      {secrets.isError && <p className="mt-2 text-sm text-red-700">Die vertraulichen Angaben konnten nicht geladen werden.</p>}
      {list.length > 0 && (
        <ul className="mt-3 flex flex-col gap-1 text-sm" aria-label="Vertrauliche Angaben">
          {list.map((s) => (
            <li key={s.id} className="flex flex-wrap justify-between gap-x-3">
              <span className="break-words font-medium">{s.label}</span>
              <span className="flex flex-wrap gap-x-2"><SecretState secret={s} /><time dateTime={s.createdAt} className="text-slate-600">{formatDateTime(s.createdAt)}</time></span>
            </li>
          ))}
        </ul>
      )}
      <AddSecretDialog ticketId={ticketId} open={open} onOpenChange={setOpen} />
    </Card>
  );
}

const emptySecret: CreateTicketSecretInput = { label: '', value: '' };

function AddSecretDialog({ ticketId, open, onOpenChange }: { ticketId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const add = useAddOwnSecret(ticketId);
  const [visible, setVisible] = useState(false);
  const form = useSchemaForm<CreateTicketSecretInput>({ resolver: zodResolver(CreateTicketSecretInput), defaultValues: emptySecret });
  const errors = form.formState.errors;
  const close = (next: boolean) => {
    if (!next) {
      form.reset(emptySecret);
      setVisible(false);
    }
    onOpenChange(next);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
      toast.success(m.secretSaved);
      close(false);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.secretSaveFailed);
    }
  });
  return (
    <Modal open={open} onOpenChange={close} title="Vertrauliche Angabe hinterlegen" description={EXPLANATION}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Bezeichnung" placeholder="z. B. Root-Passwort" autoComplete="off" maxLength={80} error={errors.label?.message} {...form.register('label')} />
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between gap-2">
            <label htmlFor="secret-value" className="text-sm font-medium text-slate-800">Vertrauliche Angabe</label>
            <button type="button" onClick={() => setVisible((v) => !v)} className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100" aria-controls="secret-value" aria-pressed={visible}>
              {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />} {visible ? 'Verbergen' : 'Anzeigen'}
            </button>
          </div>
          <textarea
            id="secret-value"
            rows={3}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? 'secret-value-error' : 'secret-value-hint'}
            className={cn(inputClass, 'font-mono', !visible && '[-webkit-text-security:disc]')}
            {...form.register('value')}
          />
          <p id="secret-value-hint" className="text-xs text-slate-600">Auch mehrzeilig, z. B. ein SSH-Schlüssel.</p>
          {errors.value && <p id="secret-value-error" role="alert" className="text-sm font-medium text-red-700">{errors.value.message}</p>}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={form.formState.isSubmitting}>Verschlüsselt hinterlegen</Button>
        </div>
      </form>
    </Modal>
  );
}

/** The staff side: labels, a logged "Anzeigen" per secret, and who opened it when. */
export function StaffSecretsCard({ ticketId }: { ticketId: string }) {
  const secrets = useStaffSecrets(ticketId, true);
  const list = secrets.data?.secrets ?? [];
  if (secrets.isSuccess && list.length === 0) return null;
  return (
    <Card className="p-4">
      <h2 className="flex items-center gap-2 font-semibold text-slate-900"><KeyRound className="size-4" aria-hidden="true" /> Vertrauliche Angaben</h2>
      <p className="mt-1 text-sm text-slate-600">Jede Einsicht wird mit Ihrem Namen protokolliert. Beim Schließen des Tickets werden die Werte gelöscht.</p>
      {secrets.isError && <p className="mt-2 text-sm text-red-700">Die vertraulichen Angaben konnten nicht geladen werden.</p>}
      <ul className="mt-3 flex flex-col gap-3 text-sm" aria-label="Vertrauliche Angaben">
        {list.map((s) => <StaffSecret key={s.id} ticketId={ticketId} secret={s} />)}
      </ul>
    </Card>
  );
}

function StaffSecret({ ticketId, secret }: { ticketId: string; secret: TicketSecret }) {
  const open = useOpenStaffSecret(ticketId);
  const [value, setValue] = useState<string | null>(null);
  const reveal = async () => {
    try {
      setValue((await open.mutateAsync(secret.id)).value);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.secretNotFound);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value ?? '');
      toast.success('In die Zwischenablage kopiert.');
    } catch {
      toast.error('Kopieren nicht möglich. Bitte markieren Sie den Wert.');
    }
  };
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="break-words font-medium">{secret.label}</span>
        <SecretState secret={secret} />
      </div>
      {!secret.wiped && (value === null
        ? <Button variant="outline" size="sm" className="self-start" onClick={() => void reveal()} loading={open.isPending}><Eye className="size-4" aria-hidden="true" /> Anzeigen</Button>
        : (
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 font-mono text-slate-900" aria-label={`Wert von ${secret.label}`}>{value}</code>
            <Button variant="outline" size="sm" onClick={() => void copy()}><Copy className="size-4" aria-hidden="true" /> Kopieren</Button>
            <Button variant="outline" size="sm" onClick={() => setValue(null)}><EyeOff className="size-4" aria-hidden="true" /> Verbergen</Button>
          </div>
        ))}
      {secret.openings.length > 0 && (
        <ul className="text-xs text-slate-600" aria-label={`Einsichten in ${secret.label}`}>
          {secret.openings.map((o) => <li key={`${o.name}-${o.openedAt}`}>Eingesehen von {o.name} am <time dateTime={o.openedAt}>{formatDateTime(o.openedAt)}</time></li>)}
        </ul>
      )}
    </li>
  );
}
