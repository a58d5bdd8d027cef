import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import * as Switch from '@radix-ui/react-switch';
import { isEuMember, RegisterInput, messages, passwordMeetsRules, registrationPasswordRules } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field, inputClass } from '../../../components/ui/field.tsx';
import { CountryOptions } from '../../../components/forms/country-options.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { registerRequest } from '../api/registration.ts';
import { useToken } from '../../../lib/session.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { HydratedFieldset } from '../../../components/hydrated-fieldset.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { paths } from '../../../config/paths.ts';

export const REDIRECT_AFTER_REGISTRATION_MS = 3000;

export function RegisterPage() {
  const token = useToken();
  const navigate = useNavigate();
  const [createdId, setCreatedId] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { register, handleSubmit, control, setError, setValue, formState: { errors, isSubmitting } } = useSchemaForm<RegisterInput>({
    resolver: zodResolver(RegisterInput),
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', country: 'DE', business: false, companyName: '', vatId: '' },
  });
  const business = useWatch({ control, name: 'business' }) ?? false;
  const country = useWatch({ control, name: 'country' }) ?? 'DE';
  // Issue 24: a VAT ID is asked for EU companies only (for Germany it is optional).
  const asksVatId = business && isEuMember(country);
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
      const result = await registerRequest({ ...values, vatId: values.business && isEuMember(values.country ?? 'DE') ? values.vatId : '' });
      toast.success(messages.REGISTRATION_SUCCESSFUL, { duration: 5000 });
      setCreatedId(result.userId);
      timer.current = setTimeout(() => navigate(paths.verification(result.userId)), REDIRECT_AFTER_REGISTRATION_MS);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status !== 0) {
        const field = err.code === 'DATA_EXISTS' || err.code === 'USER_TO_SHORT' ? 'username' : err.code.includes('EMAIL') ? 'email' : err.code.startsWith('PASSWORT') ? 'password' : err.code === 'VAT_ID_FORMAT' ? 'vatId' : null;
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
            <HydratedFieldset className="space-y-4">
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
            <div className="space-y-1.5">
              <label htmlFor="register-country" className="block text-sm font-medium text-slate-800">Land</label>
              <select id="register-country" className={inputClass} autoComplete="country" {...register('country')}>
                <CountryOptions />
              </select>
            </div>
            <div className="flex items-center justify-between gap-4">
              <span id="register-business-label" className="text-sm font-medium text-slate-800">Firmenkunde</span>
              <Switch.Root
                checked={business}
                onCheckedChange={(on) => setValue('business', on, { shouldValidate: !!errors.companyName })}
                aria-labelledby="register-business-label"
                className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition-colors data-[state=checked]:bg-green-600"
              >
                <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
              </Switch.Root>
            </div>
            {business && <Field label="Firmenname" autoComplete="organization" {...register('companyName')} error={errors.companyName?.message} />}
            {asksVatId && (
              <Field label="USt-IdNr." autoComplete="off" spellCheck={false} {...register('vatId')} error={errors.vatId?.message}
                hint={country === 'DE' ? 'Freiwillig.' : 'Wir prüfen die Nummer nach der Registrierung; das Ergebnis sehen Sie in Ihrem Profil.'} />
            )}
            <Button type="submit" className="w-full" disabled={!canSubmit} loading={isSubmitting}>Konto erstellen</Button>
            </HydratedFieldset>
          </form>
        )}
      </AuthCard>
    </>
  );
}
