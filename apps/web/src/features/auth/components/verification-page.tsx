import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { messages } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { CodeInput, normalizeAlnum } from './code-input.tsx';
import { forgetPendingLogin, resendVerificationRequest, takePendingLogin, verifyEmailRequest } from '../api/registration.ts';
import { safeNext } from '../safe-next.ts';
import { getToken, setToken } from '../../../lib/session.ts';
import { setFlashNotice } from '../../../lib/flash-notice.ts';
import { useCountdown } from '../use-countdown.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';

export const RESEND_COOLDOWN_S = 60;

export default function VerificationPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  // Sent here by a login (rather than right after registering): the way back is the login.
  const [fromLogin] = useState(() => takePendingLogin(userId) !== undefined);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A code was mailed right before the user arrived here, so the resend starts blocked.
  const [resendAt, setResendAt] = useState(() => Date.now() + RESEND_COOLDOWN_S * 1000);
  const wait = useCountdown(resendAt);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (code.length !== 4) {
      setError(messages.codeIncomplete);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await verifyEmailRequest({ userId, code, loginToken: takePendingLogin(userId) });
      forgetPendingLogin();
      if (result.token) setToken(result.token);
      if (result.token || getToken()) {
        // Signed in (the code finished the login that asked for it): on to where the user was going.
        // The login's "please confirm first" toast is answered now.
        toast.dismiss();
        toast.success(messages.emailVerifiedSignedIn, { duration: 7000 });
        navigate(next ?? paths.dashboard.root, { replace: true });
      } else {
        // The login page says it in the page, not only in a toast that may be gone by then.
        setFlashNotice(result.message);
        navigate(next ? `${paths.login}?next=${encodeURIComponent(next)}` : paths.login, { replace: true });
      }
    } catch (err) {
      setCode('');
      setError(err instanceof ApiRequestError && err.code === 'INVALID_CODE' ? messages.invalidVerificationCode : err instanceof ApiRequestError && err.status === 429 ? err.message : messages.verificationError);
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    try {
      const result = await resendVerificationRequest({ userId });
      setResendAt(Date.now() + result.retryAfterSeconds * 1000);
      toast.success('Ein neuer Code wurde gesendet.');
    } catch (err) {
      const retry = err instanceof ApiRequestError ? Number(err.details?.retryAfterSeconds ?? 0) : 0;
      if (retry > 0) setResendAt(Date.now() + retry * 1000);
      toast.error(err instanceof ApiRequestError && err.status === 429 ? err.message : messages.resendError);
    }
  };

  return (
    <>
      <PageMeta title="E-Mail bestätigen" />
      <AuthCard
        title="E-Mail bestätigen"
        subtitle="Geben Sie den 4-stelligen Code ein, den wir Ihnen per E-Mail gesendet haben. Der Code ist 10 Minuten gültig."
        footer={fromLogin
          ? <Link className="font-medium text-brand-700 underline" to={paths.login}>Zurück zum Login</Link>
          : <Link className="font-medium text-brand-700 underline" to={paths.register}>Zurück zur Registrierung</Link>}
      >
        <form onSubmit={submit} noValidate className="space-y-5">
          <CodeInput value={code} onChange={(v) => { setCode(v); setError(null); }} length={4} label="Bestätigungscode" normalize={normalizeAlnum} autoFocus invalid={!!error} />
          {error && <Alert tone="error">{error}</Alert>}
          <Button type="submit" className="w-full" loading={busy}>Bestätigen</Button>
          <Button type="button" variant="outline" className="w-full" onClick={resend} disabled={wait > 0}>
            {wait > 0 ? `Code erneut senden (${wait} s)` : 'Code erneut senden'}
          </Button>
        </form>
      </AuthCard>
    </>
  );
}
