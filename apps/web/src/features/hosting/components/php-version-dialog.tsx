import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { PhpSettingsInput, type HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useSavePhpSettings } from '../api/hosting.ts';
import { errorText } from './format.ts';

/** "PHP-Version ändern" (spec dialog): a radio list of the package's versions. */
export function PhpVersionDialog({ detail, open, onOpenChange }: { detail: HostingDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const save = useSavePhpSettings(detail.id);
  const current = detail.site?.phpVersion;
  const form = useSchemaForm<PhpSettingsInput>({ resolver: zodResolver(PhpSettingsInput), defaultValues: { phpVersion: current } });
  const chosen = form.watch('phpVersion');
  const errors = form.formState.errors;
  const close = (next: boolean) => {
    if (!next) { form.reset(); save.reset(); }
    onOpenChange(next);
  };
  const submit = form.handleSubmit(async ({ phpVersion }) => {
    try {
      const res = await save.mutateAsync({ phpVersion });
      toast.success(res.message ?? 'Die PHP-Version wurde geändert.');
      close(false);
    } catch {
      // shown below, next to the button
    }
  });
  return (
    <Modal open={open} onOpenChange={close} title="PHP-Version ändern" description="Die neue Version gilt für alle Domains dieses Pakets.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">PHP-Version</legend>
          <div className="mt-2 space-y-2">
            {detail.phpVersions.map((v) => (
              <label key={v} className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-4 py-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                <input type="radio" value={v} className="size-4" {...form.register('phpVersion')} />
                <span className="font-medium text-slate-900">PHP {v}</span>
                {v === current && <span className="text-slate-600">(aktuell)</span>}
              </label>
            ))}
          </div>
        </fieldset>
        {errors.phpVersion?.message && <p role="alert" className="text-sm font-medium text-red-700">{errors.phpVersion.message}</p>}
        {save.isError && <Alert tone="error">{errorText(save.error, 'Die PHP-Version konnte nicht geändert werden.')}</Alert>}
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)} disabled={save.isPending}>Abbrechen</Button>
          <Button type="submit" loading={save.isPending} disabled={!chosen || chosen === current}>Version übernehmen</Button>
        </div>
      </form>
    </Modal>
  );
}
