import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { TicketMailSetting, ticketMessages as m } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useSaveTicketMailSetting, useTicketMailSetting } from '../api/mail-setting.ts';

/** Staff profile: mails about new tickets and customer replies, on by default. */
export function TicketMailSettingCard() {
  const setting = useTicketMailSetting();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Ticket-Benachrichtigungen</h2>
      {setting.isPending && <Spinner label="Lade Einstellung …" />}
      {setting.isError && <Alert tone="error" className="mt-3">Die Einstellung konnte nicht geladen werden. {setting.error.message}</Alert>}
      {setting.data && <TicketMailSettingForm initial={setting.data} />}
    </Card>
  );
}

function TicketMailSettingForm({ initial }: { initial: TicketMailSetting }) {
  const save = useSaveTicketMailSetting();
  const form = useSchemaForm<TicketMailSetting>({ resolver: zodResolver(TicketMailSetting), defaultValues: initial });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      form.reset(await save.mutateAsync(values));
      toast.success(m.mailSettingSaved);
    } catch {
      toast.error(m.mailSettingFailed);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-3">
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input type="checkbox" className="mt-0.5 size-4" {...form.register('enabled')} />
        <span>E-Mails über neue Tickets und Kundenantworten erhalten (nicht übernommene Tickets an alle Mitarbeiter, übernommene an Sie als Bearbeiter).</span>
      </label>
      <Button type="submit" variant="outline" className="self-start" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>Speichern</Button>
    </form>
  );
}
