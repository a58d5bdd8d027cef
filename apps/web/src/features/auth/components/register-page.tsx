import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { RegisterInput, messages, passwordMeetsRules, registrationPasswordRules } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { registerRequest } from '../api/registration.ts';
import { useToken } from '../../../lib/session.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { useSchemaForm } from '../../../lib/forms.ts';
import { paths } from '../../../config/paths.ts';

export const REDIRECT_AFTER_REGISTRATION_MS = 3000;

export function RegisterPage() {
  const token = useToken();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [createdId, setCreatedId] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { register, handleSubmit, control, setError, formState: { errors, isSubmitting } } = useSchemaForm<RegisterInput>({
    resolver: zodResolver(RegisterInput),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const password = useWatch({ control, name: 'password' }) ?? '';
  const confirm = useWatch({ control, name: 'confirmPassword' }) ?? '';
  const rulesMet = passwordMeetsRules(password, registrationPasswordRules);
  const canSubmit = rulesMet && password === confirm;

  useEffect(() => () => clearTimeout(timer.current), []);

  const onSubmit = handleSubmit(async (values) => {
    if (!canSubmit) {
      toast.error(messages.passwordRulesUnmet);
      return;
    }
    try {
      const result = await registerRequest(values);
      toast.success(messages.REGISTRATION_SUCCESSFUL, { duration: 5000 });
      setCreatedId(result.userId);
      timer.current = setTimeout(() => navigate(paths.verification(result.userId)), REDIRECT_AFTER_REGISTRATION_MS);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status !== 0) {
        const field = err.code === 'DATA_EXISTS' || err.code === 'USER_TO_SHORT' ? 'username' : err.code.includes('EMAIL') ? 'email' : err.code.startsWith('PASSWORT') ? 'password' : null;
        if (field) setError(field, { message: err.message });
        toast.error(err.message, { duration: 5000 });
      } else {
        toast.error(messages.registrationNetwork, { duration: 5000 });
      }
    }
  });

  if (token && !createdId) return <Navigate to={paths.login} replace />;

  return (
    <>
      <PageMeta title="Registrieren" description="Erstellen Sie ein Kundenkonto, um Root Server zu bestellen und zu verwalten." />
      <AuthCard
        title="Registrieren"
        subtitle="Legen Sie Ihr Kundenkonto an. Wir senden Ihnen einen Bestätigungscode per E-Mail."
        footer={<>Bereits registriert? <Link className="font-medium text-brand-700 underline" to={paths.login}>Zum Login</Link></>}
      >
        {createdId ? (
          <Alert tone="success">
            {messages.REGISTRATION_SUCCESSFUL}. Wir haben Ihnen einen Bestätigungscode gesendet – Sie werden gleich weitergeleitet.{' '}
            <Link className="font-medium underline" to={paths.verification(createdId)}>Jetzt Code eingeben</Link>
          </Alert>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <fieldset disabled={!hydrated} className="space-y-4">
            <Field label="Benutzername" autoComplete="username" {...register('username')} error={errors.username?.message} />
            <Field label="E-Mail" type="email" autoComplete="email" {...register('email')} error={errors.email?.message} />
            <Field label="Passwort" type="password" autoComplete="new-password" aria-describedby="pw-rules" {...register('password')} error={errors.password?.message} />
            <PasswordChecklist id="pw-rules" password={password} rules={registrationPasswordRules} />
            <Field
              label="Passwort bestätigen"
              type="password"
              autoComplete="new-password"
              {...register('confirmPassword')}
              error={errors.confirmPassword?.message ?? (confirm && confirm !== password ? messages.PASSWORT_NOT_IDENTICALLY : undefined)}
            />
            <Button type="submit" className="w-full" disabled={!canSubmit} loading={isSubmitting}>Konto erstellen</Button>
            </fieldset>
          </form>
        )}
      </AuthCard>
    </>
  );
}
