import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { AddDomainInput, type HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useAddDomain } from '../api/domains.ts';
import { errorText } from './format.ts';

/** "Domain hinzufügen": an addon domain with its own folder; the plan's limit is shown. */
export function AddDomainDialog({ detail, used, onClose }: { detail: HostingDetail; used: number; onClose: () => void }) {
  const add = useAddDomain(detail.id);
  const form = useSchemaForm<{ domain: string }, unknown, AddDomainInput>({ resolver: zodResolver(AddDomainInput), defaultValues: { domain: '' } });
  const submit = form.handleSubmit(async (input) => {
    try {
      const domain = await add.mutateAsync(input);
      toast.success(`Die Domain ${domain.domain} wurde hinzugefügt. Der Webserver übernimmt sie innerhalb etwa einer Minute.`);
      onClose();
    } catch (err) {
      form.setError('domain', { message: errorText(err, 'Die Domain konnte nicht hinzugefügt werden.') });
    }
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Domain hinzufügen" description={`Ihr Tarif ${detail.planName} enthält bis zu ${detail.limits.domains} Domains; ${used} davon sind genutzt.`}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Domain" autoComplete="off" spellCheck={false} inputMode="url" placeholder="meine-firma.de"
          hint="Richten Sie die DNS-Einträge der Domain auf unseren Server, damit sie erreichbar wird."
          error={form.formState.errors.domain?.message} {...form.register('domain')} />
        {used >= detail.limits.domains && <Alert tone="warning">Ihr Tarif enthält keine weiteren Domains. Bitte wechseln Sie in einen größeren Tarif.</Alert>}
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={add.isPending}>Abbrechen</Button>
          <Button type="submit" loading={add.isPending} disabled={used >= detail.limits.domains}>Domain hinzufügen</Button>
        </div>
      </form>
    </Modal>
  );
}
