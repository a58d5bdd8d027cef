import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { CheckCircle2, ShieldCheck } from 'lucide-react';
import { messages } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { CodeInput, normalizeDigits } from './code-input.tsx';
import { MFA_TOKEN_KEY, mfaLoginRequest } from '../api/login.ts';
import { setToken } from '../../../lib/session.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';

export const MFA_REDIRECT_DELAY_MS = 1000;

export default function MfaPage() {
  const navigate = useNavigate();
  const [mfaToken] = useState(() => sessionStorage.getItem(MFA_TOKEN_KEY));
  const [mode, setMode] = useState<'totp' | 'backup'>('totp');
  const [code, setCode] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!mfaToken) return <Navigate to={paths.login} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'totp' && !/^\d{6}$/.test(code)) return setError(messages.mfaCodeInvalid);
    if (mode === 'backup' && backupCode.replace(/[^A-Za-z0-9]/g, '').length !== 10) return setError(messages.mfaBackupCodeInvalid);
    setBusy(true);
    setError(null);
    try {
      const result = await mfaLoginRequest(mode === 'totp' ? { mfaToken, code } : { mfaToken, backupCode });
      sessionStorage.removeItem(MFA_TOKEN_KEY);
      setToken(result.token);
      setDone(true);
      timer.current = setTimeout(() => navigate(paths.dashboard.root), MFA_REDIRECT_DELAY_MS);
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 401) {
        sessionStorage.removeItem(MFA_TOKEN_KEY);
        setError(err.message);
        timer.current = setTimeout(() => navigate(paths.login), 2000);
      } else {
        setError(err instanceof ApiRequestError ? err.message : messages.genericError);
        setCode('');
      }
    } finally {
      setBusy(false);
    }
  };

  const backToLogin = () => {
    sessionStorage.removeItem(MFA_TOKEN_KEY);
    navigate(paths.login);
  };

  return (
    <div className="min-h-screen bg-slate-50">
      <PageMeta title="Zwei-Faktor-Authentifizierung" />
      <main>
        <AuthCard
          title="Zwei-Faktor-Authentifizierung"
          subtitle={mode === 'totp'
            ? 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein. Der zeitbasierte Code erneuert sich alle 30 Sekunden.'
            : 'Geben Sie einen Ihrer Backup-Codes ein. Jeder Backup-Code kann nur einmal verwendet werden.'}
        >
          {done ? (
            <div className="space-y-3 text-center" role="status">
              <CheckCircle2 className="mx-auto size-12 text-green-600" aria-hidden="true" />
              <p className="text-lg font-semibold text-green-700">Erfolgreich verifiziert</p>
            </div>
          ) : (
            <form onSubmit={submit} noValidate className="space-y-5">
              {mode === 'totp' ? (
                <CodeInput value={code} onChange={(v) => { setCode(v); setError(null); }} length={6} label="Authenticator-Code" normalize={normalizeDigits} inputMode="numeric" autoFocus invalid={!!error} />
              ) : (
                <Field label="Backup-Code" autoComplete="off" placeholder="XXXXX-XXXXX" value={backupCode} onChange={(e) => { setBackupCode(e.target.value); setError(null); }} autoFocus />
              )}
              {error && <Alert tone="error">{error}</Alert>}
              <Button type="submit" className="w-full" loading={busy}><ShieldCheck className="size-4" aria-hidden="true" /> Verifizieren</Button>
              <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
                <Button variant="ghost" onClick={backToLogin}>Zurück zum Login</Button>
                <Button variant="ghost" onClick={() => { setMode(mode === 'totp' ? 'backup' : 'totp'); setError(null); }}>
                  {mode === 'totp' ? 'Backup-Code verwenden' : 'Authenticator-Code verwenden'}
                </Button>
              </div>
            </form>
          )}
        </AuthCard>
      </main>
    </div>
  );
}
