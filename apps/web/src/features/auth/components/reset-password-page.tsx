import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { changePasswordRules, messages, passwordMeetsRules, ResetRequestInput } from '@hp/contract';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { CodeInput, normalizeAlnum } from './code-input.tsx';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { resetComplete, resetRequest, resetVerify } from '../api/password-reset.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { HydratedFieldset } from '../../../components/hydrated-fieldset.tsx';
import { paths } from '../../../config/paths.ts';

type Step = 'email' | 'code' | 'password' | 'success';
const steps: { id: Step; label: string }[] = [
  { id: 'email', label: 'E-Mail' },
  { id: 'code', label: 'Code' },
  { id: 'password', label: 'Passwort' },
  { id: 'success', label: 'Fertig' },
];

function StepIndicator({ current }: { current: Step }) {
  const index = steps.findIndex((s) => s.id === current);
  return (
    <ol className="mb-6 flex items-center gap-2" aria-label="Fortschritt">
      {steps.map((s, i) => (
        <li key={s.id} className="flex flex-1 flex-col items-center gap-1" aria-current={i === index ? 'step' : undefined}>
          <span className={cn('flex size-8 items-center justify-center rounded-full text-sm font-semibold', i < index ? 'bg-green-600 text-white' : i === index ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700')}>{i + 1}</span>
          <span className={cn('text-xs', i === index ? 'font-semibold text-slate-900' : 'text-slate-600')}>{s.label}</span>
        </li>
      ))}
    </ol>
  );
}

export function ResetPasswordPage() {
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [resetId, setResetId] = useState('');
  const [code, setCode] = useState('');
  const [resetToken, setResetToken] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Set when step 1 is refused because a code was sent less than 5 minutes ago: that code still works.
  const [codeAlreadySent, setCodeAlreadySent] = useState(false);
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    setCodeAlreadySent(false);
    try {
      await fn();
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status >= 400 && err.status < 500 ? err.message : fallback);
      setCodeAlreadySent(err instanceof ApiRequestError && err.code === 'RESET_TOO_EARLY');
    } finally {
      setBusy(false);
    }
  };

  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ResetRequestInput.safeParse({ email });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? messages.NO_KORREKT_EMAIL);
    void run(async () => {
      const result = await resetRequest(parsed.data);
      setResetId(result.resetId);
      setCode('');
      setStep('code');
    }, messages.resetRequestFailed);
  };

  /** "Ich habe bereits einen Code": straight to the code step; the code is then found by the address. */
  const enterExistingCode = () => {
    setCodeAlreadySent(false);
    const parsed = ResetRequestInput.safeParse({ email });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? messages.NO_KORREKT_EMAIL);
    setError(null);
    setEmail(parsed.data.email);
    setResetId('');
    setCode('');
    setStep('code');
  };

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    if (code.length !== 4) return setError(messages.codeIncomplete);
    void run(async () => {
      const result = await resetVerify(resetId ? { resetId, code } : { email, code });
      setResetToken(result.resetToken);
      setStep('password');
    }, messages.invalidOrExpiredCode);
  };

  const rulesMet = passwordMeetsRules(password, changePasswordRules);
  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (password !== confirm) return setError(messages.passwordsDiffer);
    if (!rulesMet) return setError(messages.resetPasswordRulesUnmet);
    void run(async () => {
      await resetComplete({ resetToken, newPassword: password });
      setStep('success');
    }, messages.resetFailed);
  };

  const back = (to: Step) => (
    <Button variant="ghost" onClick={() => { setError(null); setCodeAlreadySent(false); setStep(to); }}>
      <ArrowLeft className="size-4" aria-hidden="true" /> Zurück
    </Button>
  );

  return (
    <>
      <PageMeta title="Passwort zurücksetzen" description="Setzen Sie das Passwort Ihres Kundenkontos in wenigen Schritten zurück." />
      <AuthCard title="Passwort zurücksetzen" footer={<Link className="font-medium text-brand-700 underline" to={paths.login}>Zurück zum Login</Link>}>
        <StepIndicator current={step} />
        {error && (
          <Alert tone="error" className="mb-4">
            {error}
            {codeAlreadySent && step === 'email' && (
              <>
                {' '}Der zuletzt gesendete Code ist 10 Minuten gültig.{' '}
                <button type="button" className="font-semibold underline underline-offset-2" onClick={enterExistingCode}>Ich habe bereits einen Code</button>
              </>
            )}
          </Alert>
        )}
        {step === 'email' && (
          <form onSubmit={submitEmail} noValidate className="space-y-4">
            <HydratedFieldset className="space-y-4">
            <p className="text-sm text-slate-600">Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen 4-stelligen Code.</p>
            <Field label="E-Mail" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            <Button type="submit" className="w-full" loading={busy}>Code anfordern</Button>
            {!codeAlreadySent && <Button variant="ghost" className="w-full" disabled={busy} onClick={enterExistingCode}>Ich habe bereits einen Code</Button>}
            </HydratedFieldset>
          </form>
        )}
        {step === 'code' && (
          <form onSubmit={submitCode} noValidate className="space-y-4">
            <p className="text-sm text-slate-600">
              {resetId
                ? <>Falls ein Konto zu <strong>{email}</strong> existiert, haben wir Ihnen einen Code gesendet. Er ist 10 Minuten gültig.</>
                : <>Geben Sie den Code aus der E-Mail ein, die wir an <strong>{email}</strong> gesendet haben. Er ist 10 Minuten gültig.</>}
            </p>
            <CodeInput value={code} onChange={(v) => { setCode(v); setError(null); }} length={4} label="Code aus der E-Mail" normalize={normalizeAlnum} autoFocus invalid={!!error} />
            <div className="flex items-center justify-between gap-2">
              {back('email')}
              <Button type="submit" loading={busy}>Code prüfen</Button>
            </div>
          </form>
        )}
        {step === 'password' && (
          <form onSubmit={submitPassword} noValidate className="space-y-4">
            <Field label="Neues Passwort" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            <PasswordChecklist password={password} rules={changePasswordRules} />
            <Field label="Neues Passwort bestätigen" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)}
              error={confirm && confirm !== password ? messages.passwordsDiffer : undefined} />
            <div className="flex items-center justify-between gap-2">
              {back('code')}
              <Button type="submit" loading={busy} disabled={!rulesMet || password !== confirm}>Passwort speichern</Button>
            </div>
          </form>
        )}
        {step === 'success' && (
          <div className="space-y-4 text-center">
            <CheckCircle2 className="mx-auto size-12 text-green-600" aria-hidden="true" />
            <p className="text-slate-700">Ihr Passwort wurde geändert. Alle bestehenden Sitzungen wurden abgemeldet.</p>
            <ButtonLink to={paths.login} className="w-full">Zum Login</ButtonLink>
          </div>
        )}
      </AuthCard>
    </>
  );
}
