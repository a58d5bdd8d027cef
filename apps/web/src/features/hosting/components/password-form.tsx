import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { HostingPasswordInput, registrationPasswordRules } from '@hp/contract';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { errorText } from './format.ts';

/**
 * Password + confirmation for the FTP account or a database user (HostingPasswordInput). The panel's
 * answer is shown as a toast; a refusal stays in the form, next to the button.
 */
export function HostingPasswordForm({ label, submitLabel, successFallback, onSubmit, onDone, onCancel, disabled }: {
  label: string;
  submitLabel: string;
  successFallback: string;
  onSubmit: (input: HostingPasswordInput) => Promise<{ message?: string } | undefined>;
  onDone?: () => void;
  onCancel?: () => void;
  disabled?: boolean;
}) {
  const form = useSchemaForm<HostingPasswordInput>({ resolver: zodResolver(HostingPasswordInput), defaultValues: { password: '', confirmPassword: '' } });
  const errors = form.formState.errors;
  const password = form.watch('password') ?? '';
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await onSubmit(values);
      toast.success(res?.message ?? successFallback);
      form.reset();
      onDone?.();
    } catch (err) {
      form.setError('root.server', { message: errorText(err, 'Das Passwort konnte nicht geändert werden.') });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label={label} type="password" autoComplete="new-password" error={errors.password?.message}
        hint={<PasswordChecklist password={password} rules={registrationPasswordRules} />} {...form.register('password')} />
      <Field label="Passwort bestätigen" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register('confirmPassword')} />
      {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
      <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
        {onCancel && <Button variant="outline" onClick={onCancel} disabled={form.formState.isSubmitting}>Abbrechen</Button>}
        <Button type="submit" loading={form.formState.isSubmitting} disabled={disabled}>{submitLabel}</Button>
      </div>
    </form>
  );
}
