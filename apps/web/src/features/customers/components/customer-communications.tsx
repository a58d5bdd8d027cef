import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Mail, PhoneCall } from 'lucide-react';
import {
  communicationKindLabels, customerDetailMessages as m, RecordCommunicationInput, SendCustomerMailInput, type Communication, type CustomerDetail,
} from '@hp/contract';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useRecordCommunication, useSendCustomerMail } from '../api/customers.ts';

const dateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const preview = (c: Communication) => {
  if (c.body === null) return c.kind === 'email' ? 'Inhalt nicht gespeichert (enthielt einen Einmal-Code).' : 'Keine Notizen.';
  return c.body.length > 140 ? `${c.body.slice(0, 140)} …` : c.body;
};

/** "Kommunikation": every mail the customer received, and contacts staff recorded. */
export function CustomerCommunications({ customer, openMail = false }: { customer: CustomerDetail; openMail?: boolean }) {
  const [mailOpen, setMailOpen] = useState(openMail);
  const [recordOpen, setRecordOpen] = useState(false);
  const [opened, setOpened] = useState<Communication | null>(null);
  return (
    <section aria-labelledby="communication-heading">
      <Card className="p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="communication-heading" className="font-semibold text-slate-900">Kommunikation</h2>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => setMailOpen(true)}><Mail className="size-4" aria-hidden="true" /> E-Mail senden</Button>
            <Button size="sm" variant="outline" onClick={() => setRecordOpen(true)}><PhoneCall className="size-4" aria-hidden="true" /> Kommunikation erfassen</Button>
          </div>
        </div>
        {customer.communications.length === 0 ? <p className="mt-2 text-sm text-slate-600">Noch keine Kommunikation.</p> : (
          <ol className="mt-3 flex flex-col divide-y divide-slate-100" aria-label="Kommunikation">
            {customer.communications.map((c) => (
              <li key={c.id} className="flex flex-col gap-1 py-2 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="flex min-w-0 flex-wrap items-center gap-2">
                    <Badge tone={c.kind === 'email' ? 'info' : 'neutral'}>{communicationKindLabels[c.kind]}</Badge>
                    <span className="break-words font-medium text-slate-900">{c.subject}</span>
                  </span>
                  <span className="text-xs text-slate-600"><time dateTime={c.createdAt}>{dateTime(c.createdAt)}</time>{c.staff ? ` · ${c.staff}` : ' · System'}</span>
                </div>
                <p className="whitespace-pre-wrap break-words text-slate-700">{preview(c)}</p>
                {c.body !== null && c.body.length > 140 && <button type="button" className="self-start text-sm font-medium text-brand-700 underline" onClick={() => setOpened(c)}>Öffnen</button>}
              </li>
            ))}
          </ol>
        )}
      </Card>
      <Modal open={opened !== null} onOpenChange={(next) => !next && setOpened(null)} title={opened?.subject ?? ''} description={opened ? `${communicationKindLabels[opened.kind]} · ${dateTime(opened.createdAt)}` : undefined}>
        <p className="max-h-[60vh] overflow-y-auto whitespace-pre-wrap break-words text-sm text-slate-800">{opened?.body}</p>
      </Modal>
      <SendMailDialog customer={customer} open={mailOpen} onOpenChange={setMailOpen} />
      <RecordDialog customer={customer} open={recordOpen} onOpenChange={setRecordOpen} />
    </section>
  );
}

function SendMailDialog({ customer, open, onOpenChange }: { customer: CustomerDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const send = useSendCustomerMail(customer.id);
  const form = useSchemaForm<SendCustomerMailInput>({ resolver: zodResolver(SendCustomerMailInput), defaultValues: { subject: '', body: '' } });
  const close = (next: boolean) => {
    if (!next) form.reset({ subject: '', body: '' });
    onOpenChange(next);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      toast.success((await send.mutateAsync(values)).message);
      close(false);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.mailFailed);
    }
  });
  return (
    <Modal open={open} onOpenChange={close} title="E-Mail senden" description={`An ${customer.email}`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Betreff" autoComplete="off" maxLength={150} error={form.formState.errors.subject?.message} {...form.register('subject')} />
        <TextareaField label="Nachricht" rows={6} error={form.formState.errors.body?.message} {...form.register('body')} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={form.formState.isSubmitting}>Senden</Button>
        </div>
      </form>
    </Modal>
  );
}

const emptyRecord: RecordCommunicationInput = { kind: 'call', subject: '', body: '' };

function RecordDialog({ customer, open, onOpenChange }: { customer: CustomerDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const record = useRecordCommunication(customer.id);
  const form = useSchemaForm<RecordCommunicationInput>({ resolver: zodResolver(RecordCommunicationInput), defaultValues: emptyRecord });
  const close = (next: boolean) => {
    if (!next) form.reset(emptyRecord);
    onOpenChange(next);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await record.mutateAsync(values);
      toast.success(m.communicationSaved);
      close(false);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.communicationFailed);
    }
  });
  return (
    <Modal open={open} onOpenChange={close} title="Kommunikation erfassen" description={`Mit ${customer.name}`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <SelectField label="Art" error={form.formState.errors.kind?.message} {...form.register('kind')}>
          <option value="call">{communicationKindLabels.call}</option>
          <option value="meeting">{communicationKindLabels.meeting}</option>
          <option value="other">{communicationKindLabels.other}</option>
        </SelectField>
        <Field label="Betreff" autoComplete="off" maxLength={150} error={form.formState.errors.subject?.message} {...form.register('subject')} />
        <TextareaField label="Notizen (optional)" rows={4} error={form.formState.errors.body?.message} {...form.register('body')} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={form.formState.isSubmitting}>Speichern</Button>
        </div>
      </form>
    </Modal>
  );
}
