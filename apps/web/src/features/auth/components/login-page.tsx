import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { messages, type LoginInput } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { loginRequest, MFA_TOKEN_KEY } from '../api/login.ts';
import { rememberPendingLogin } from '../api/registration.ts';
import { setToken } from '../../../lib/session.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { HydratedFieldset } from '../../../components/hydrated-fieldset.tsx';
import { takeFlashNotice } from '../../../lib/flash-notice.ts';
import { inputResolver, useSchemaForm } from '../../../lib/forms.ts';
import { paths } from '../../../config/paths.ts';
import { safeNext } from '../safe-next.ts';

const loginResolver = inputResolver(() => import('../api/login-schema.ts').then((m) => m.LoginInput), (values: LoginInput) => values);

/** One toast for a failed login: a second failure replaces it, a success removes it. */
const LOGIN_ERROR_TOAST = 'login-error';

export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  // A confirmation handed over by the page that signed the user out (e.g. "Konto löschen"); read after
  // hydration, since the prerendered page cannot know it.
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    const message = takeFlashNotice();
    if (message) setNotice(message);
  }, []);
  const { register, handleSubmit, formState: { errors, isSubmitting } } = useSchemaForm<LoginInput>({ resolver: loginResolver, defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await loginRequest(values);
      // A failed attempt's message must not follow the user into the portal once the next one succeeds.
      toast.dismiss(LOGIN_ERROR_TOAST);
      if ('token' in result) {
        setToken(result.token);
        navigate(next ?? paths.dashboard.root);
      } else {
        sessionStorage.setItem(MFA_TOKEN_KEY, result.mfaToken);
        navigate(paths.dashboard.mfa);
      }
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === 'EMAIL_NOT_VERIFIED' && typeof err.details?.userId === 'string') {
        toast.info(err.message, { duration: 7000 });
        // The code then finishes this login and goes on to `next` (e.g. the checkout).
        if (typeof err.details.loginToken === 'string') rememberPendingLogin(err.details.userId, err.details.loginToken);
        navigate(`${paths.verification(err.details.userId)}${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      } else if (err instanceof ApiRequestError && err.status !== 0) {
        toast.error(err.code === 'INVALID_DATA' ? messages.invalidLogin : err.message, { id: LOGIN_ERROR_TOAST, duration: 7000 });
      } else {
        toast.error(messages.loginNetwork, { id: LOGIN_ERROR_TOAST, duration: 7000 });
      }
    }
  });

  return (
    <>
      <PageMeta title="Login" description="Melden Sie sich im Kundenportal an, um Ihre Server, Rechnungen und Tickets zu verwalten." />
      <AuthCard
        title="Login"
        subtitle="Melden Sie sich mit Ihrem Benutzernamen an."
        footer={<>Noch kein Konto? <Link className="font-medium text-brand-700 underline" to={paths.register}>Jetzt registrieren</Link></>}
      >
        {notice && <Alert tone="success" className="mb-4">{notice}</Alert>}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
            <HydratedFieldset className="space-y-4">
          <Field label="Benutzername" autoComplete="username" {...register('username')} error={errors.username?.message} />
          <Field label="Passwort" type="password" autoComplete="current-password" {...register('password')} error={errors.password?.message} />
          <div className="flex justify-end">
            <Link to={paths.passwordReset} className="text-sm font-medium text-brand-700 underline">Passwort vergessen?</Link>
          </div>
          <Button type="submit" className="w-full" loading={isSubmitting}>Anmelden</Button>
          </HydratedFieldset>
          </form>
      </AuthCard>
    </>
  );
}
