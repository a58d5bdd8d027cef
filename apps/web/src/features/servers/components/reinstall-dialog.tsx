import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { REINSTALL_OS, ReinstallForm, type ReinstallInput, rootPasswordRules, serverPasswordName, serverSettingsMessages, type ServerDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/forms.ts';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { useReinstall } from '../api/settings.ts';

/**
 * Reinstall dialog (spec §2, §5, §9): password + confirmation, OS choice only for Linux, a clear warning
 * that all data is lost and an explicit confirmation. Owner only (the API refuses shared users).
 */
export function ReinstallDialog({ detail, linux, open, onOpenChange }: { detail: ServerDetail; linux: boolean; open: boolean; onOpenChange: (open: boolean) => void }) {
  const reinstall = useReinstall(detail.id);
  const defaultOs = (REINSTALL_OS as readonly string[]).includes(detail.os) ? (detail.os as ReinstallInput['os']) : 'Debian 12';
  const form = useSchemaForm<ReinstallForm, unknown, ReinstallForm>({
    resolver: zodResolver(ReinstallForm),
    defaultValues: { ...(linux ? { os: defaultOs } : {}), password: '', confirmPassword: '', confirmLoss: false },
  });
  const errors = form.formState.errors;
  const password = form.watch('password') ?? '';
  const confirmLoss = form.watch('confirmLoss');

  const close = (next: boolean) => {
    if (!next) form.reset();
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async ({ os, password: pw, confirmPassword }) => {
    try {
      await reinstall.mutateAsync({ ...(linux ? { os } : {}), password: pw, confirmPassword });
      toast.info(serverSettingsMessages.reinstallStarted, { duration: 7000 });
      close(false);
    } catch (err) {
      toast.error(err instanceof ApiRequestError && err.status > 0 && err.status < 500 ? err.message : serverSettingsMessages.reinstallFailed, { duration: 7000 });
    }
  });

  return (
    <Modal open={open} onOpenChange={close} title="Server neuinstallieren" description={`${detail.name} wird mit einem frischen System neu aufgesetzt.`}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Alert tone="error">{serverSettingsMessages.reinstallWarning}</Alert>
        {linux && (
          <SelectField label="Betriebssystem" error={errors.os?.message} {...form.register('os')}>
            {REINSTALL_OS.map((os) => <option key={os} value={os}>{os}</option>)}
          </SelectField>
        )}
        <Field label={`Neues ${serverPasswordName(detail.os)}`} type="password" autoComplete="new-password" error={errors.password?.message} hint={<PasswordChecklist password={password} rules={rootPasswordRules} />} {...form.register('password')} />
        <Field label="Passwort bestätigen" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register('confirmPassword')} />
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" className="mt-0.5 size-4" {...form.register('confirmLoss')} />
          <span>Ich habe verstanden, dass alle Daten auf dem Server gelöscht werden.</span>
        </label>
        {errors.confirmLoss?.message && <p role="alert" className="text-sm font-medium text-red-700">{errors.confirmLoss.message}</p>}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)} disabled={reinstall.isPending}>Abbrechen</Button>
          <Button type="submit" variant="danger" loading={reinstall.isPending} disabled={!confirmLoss}>Jetzt neu installieren</Button>
        </div>
      </form>
    </Modal>
  );
}
