import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { CreateDatabaseInput, registrationPasswordRules } from '@hp/contract';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCreateDatabase, type HostingDatabaseUser } from '../api/databases.ts';
import { errorText } from './format.ts';

/**
 * "Datenbank erstellen": the name without the package prefix, and its user: by default a new user of the
 * same name with this password, or one of the package's existing users (who keeps its password).
 */
export function CreateDatabaseDialog({ hostingId, prefix, users, onClose }: { hostingId: string; prefix: string; users: HostingDatabaseUser[]; onClose: () => void }) {
  const create = useCreateDatabase(hostingId);
  const form = useSchemaForm<CreateDatabaseInput>({ resolver: zodResolver(CreateDatabaseInput), defaultValues: { name: '', userId: '', password: '', confirmPassword: '' } });
  const errors = form.formState.errors;
  const name = (form.watch('name') ?? '').trim().toLowerCase();
  const password = form.watch('password') ?? '';
  const existingUser = users.find((u) => u.id === form.watch('userId'));
  const submit = form.handleSubmit(async (input) => {
    try {
      const body: CreateDatabaseInput = input.userId ? { name: input.name, userId: input.userId } : { name: input.name, password: input.password, confirmPassword: input.confirmPassword };
      const db = await create.mutateAsync(body);
      toast.success(`Die Datenbank ${db.name} wurde angelegt${db.user ? `, ihr Benutzer heißt ${db.user}` : ''}.`);
      onClose();
    } catch (err) {
      form.setError('root.server', { message: errorText(err, 'Die Datenbank konnte nicht angelegt werden.') });
    }
  });
  const userField = form.register('userId');
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Datenbank erstellen"
      description="Wählen Sie einen vorhandenen Datenbankbenutzer oder legen Sie mit der Datenbank einen neuen Benutzer mit demselben Namen an.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label={`Name (ohne Präfix ${prefix})`} autoComplete="off" spellCheck={false} placeholder="shop"
          hint={<>Wird angelegt als <code className="break-all font-mono text-slate-900">{prefix}{name || 'name'}</code>. Kleinbuchstaben, Ziffern und Unterstriche, 3–16 Zeichen, beginnend mit einem Buchstaben.</>}
          error={errors.name?.message} {...form.register('name')} />
        <SelectField label="Datenbankbenutzer" error={errors.userId?.message} {...userField}
          onChange={(e) => {
            void userField.onChange(e);
            // An existing user keeps its password: the fields go away empty.
            form.setValue('password', '');
            form.setValue('confirmPassword', '');
            form.clearErrors(['password', 'confirmPassword']);
          }}>
          <option value="">Neuer Benutzer {prefix}{name || 'name'}</option>
          {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
        </SelectField>
        {existingUser ? (
          <p className="text-sm text-slate-600">Die Datenbank gehört {existingUser.name}; der Benutzer behält sein Passwort.</p>
        ) : (
          <>
            <Field label="Passwort des Datenbankbenutzers" type="password" autoComplete="new-password" error={errors.password?.message}
              hint={<PasswordChecklist password={password} rules={registrationPasswordRules} />} {...form.register('password')} />
            <Field label="Passwort bestätigen" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register('confirmPassword')} />
          </>
        )}
        {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>Abbrechen</Button>
          <Button type="submit" loading={create.isPending}>Datenbank erstellen</Button>
        </div>
      </form>
    </Modal>
  );
}
