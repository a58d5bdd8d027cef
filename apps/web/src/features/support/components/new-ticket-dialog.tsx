import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { CreateTicketInput, customerTicketTypes, ticketMessages, ticketTypeLabels } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCreateTicket, useOwnServers } from '../api/tickets.ts';

const defaults: CreateTicketInput = { title: '', description: '', type: 'question', serverId: null };

/** Spec "Support": the new-ticket dialog. Title and description are required; the server is optional. */
export function NewTicketDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated?: (id: string) => void }) {
  const createTicket = useCreateTicket();
  const servers = useOwnServers(open);
  const form = useSchemaForm<CreateTicketInput>({ resolver: zodResolver(CreateTicketInput), defaultValues: defaults });
  const errors = form.formState.errors;
  const ownServers = (servers.data?.servers ?? []).filter((s) => s.access === 'owner');

  const close = (next: boolean) => {
    if (!next) form.reset(defaults);
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const ticket = await createTicket.mutateAsync({ ...values, serverId: values.serverId || null });
      toast.success(ticketMessages.created);
      close(false);
      onCreated?.(ticket.id);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : ticketMessages.createFailed);
    }
  });

  return (
    <Modal open={open} onOpenChange={close} title="Neues Ticket" description="Beschreiben Sie Ihr Anliegen. Wir melden uns so schnell wie möglich.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Titel" autoComplete="off" maxLength={150} error={errors.title?.message} {...form.register('title')} />
        <SelectField label="Art" error={errors.type?.message} {...form.register('type')}>
          {customerTicketTypes.map((t) => <option key={t} value={t}>{ticketTypeLabels[t]}</option>)}
        </SelectField>
        <SelectField
          label="Betroffener Server (optional)"
          error={errors.serverId?.message}
          hint={servers.isError ? 'Ihre Server konnten nicht geladen werden.' : undefined}
          {...form.register('serverId', { setValueAs: (v: string) => v || null })}
        >
          <option value="">Kein bestimmter Server</option>
          {ownServers.map((s) => <option key={s.id} value={s.id}>{s.name}{s.ip ? ` (${s.ip})` : ''}</option>)}
        </SelectField>
        <TextareaField label="Beschreibung" rows={5} error={errors.description?.message} {...form.register('description')} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={form.formState.isSubmitting}>Ticket erstellen</Button>
        </div>
      </form>
    </Modal>
  );
}
