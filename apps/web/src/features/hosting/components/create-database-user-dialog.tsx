import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { CreateDatabaseUserInput, registrationPasswordRules } from '@hp/contract';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCreateDatabaseUser } from '../api/databases.ts';
import { errorText } from './format.ts';

/** "Benutzer erstellen": a database user without a database; the name gets the package prefix. */
export function CreateDatabaseUserDialog({ hostingId, prefix, onClose }: { hostingId: string; prefix: string; onClose: (created?: boolean) => void }) {
  const create = useCreateDatabaseUser(hostingId);
  const form = useSchemaForm<CreateDatabaseUserInput>({ resolver: zodResolver(CreateDatabaseUserInput), defaultValues: { name: '', password: '', confirmPassword: '' } });
  const errors = form.formState.errors;
  const name = (form.watch('name') ?? '').trim().toLowerCase();
  const password = form.watch('password') ?? '';
  const submit = form.handleSubmit(async (input) => {
    try {
      const user = await create.mutateAsync(input);
      toast.success(`Der Datenbankbenutzer ${user.name} wurde angelegt.`);
      onClose(true);
    } catch (err) {
      form.setError('root.server', { message: errorText(err, 'Der Benutzer konnte nicht angelegt werden.') });
    }
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Benutzer erstellen"
      description="Ein Datenbankbenutzer ohne eigene Datenbank. Beim Erstellen einer Datenbank können Sie ihn als Benutzer auswählen.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label={`Benutzername (ohne Präfix ${prefix})`} autoComplete="off" spellCheck={false} placeholder="shopuser"
          hint={<>Wird angelegt als <code className="break-all font-mono text-slate-900">{prefix}{name || 'name'}</code>. Kleinbuchstaben, Ziffern und Unterstriche, 3–16 Zeichen, beginnend mit einem Buchstaben.</>}
          error={errors.name?.message} {...form.register('name')} />
        <Field label="Passwort" type="password" autoComplete="new-password" error={errors.password?.message}
          hint={<PasswordChecklist password={password} rules={registrationPasswordRules} />} {...form.register('password')} />
        <Field label="Passwort bestätigen" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register('confirmPassword')} />
        {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onClose()} disabled={create.isPending}>Abbrechen</Button>
          <Button type="submit" loading={create.isPending}>Benutzer erstellen</Button>
        </div>
      </form>
    </Modal>
  );
}
