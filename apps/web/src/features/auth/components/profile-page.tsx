import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as Switch from '@radix-ui/react-switch';
import { toast } from 'sonner';
import { Download, KeyRound, ShieldCheck, Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  ChangeEmailInput, changePasswordRules, ConfirmEmailChangeInput, DeleteAccountInput, isEuMember, profileMessages, messages, passwordMeetsRules, privacyMessages as pm, ProfileFormInput, type Profile, type UpdateProfileInput,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Field, inputClass } from '../../../components/ui/field.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { PasswordChecklist } from '../../../components/forms/password-checklist.tsx';
import { CountryOptions } from '../../../components/forms/country-options.tsx';
import { CodeInput, normalizeAlnum, normalizeDigits } from './code-input.tsx';
import { changeEmailRequest, changePasswordRequest, confirmEmailChangeRequest, deleteAccountRequest, exportMyDataRequest, mfaDisableRequest, mfaEnableRequest, mfaSetupRequest, profileKey, updateProfileRequest, useProfile } from '../api/account.ts';
import { clearToken, setToken, useSession } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';
import { setFlashNotice } from '../../../lib/flash-notice.ts';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/forms.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.status >= 400 && err.status < 500 ? err.message : fallback);

/** `extra`: cards other features add for some roles (the route composes them, staff ticket mails). */
export default function ProfilePage({ extra }: { extra?: ReactNode } = {}) {
  const profile = useProfile();
  return (
    <div className="mx-auto max-w-4xl">
      <PageMeta title="Mein Profil" />
      <h1 className="text-2xl font-bold text-slate-900">Mein Profil</h1>
      {profile.isPending && <div className="mt-6"><Spinner label="Profil wird geladen …" /></div>}
      {profile.isError && (
        <Alert tone="error" className="mt-6">
          {errorText(profile.error, 'Das Profil konnte nicht geladen werden.')}{' '}
          <button type="button" className="font-medium underline" onClick={() => profile.refetch()}>Erneut versuchen</button>
        </Alert>
      )}
      {profile.data && (
        <div className="mt-6 space-y-6">
          <ProfileForm profile={profile.data} />
          <SecurityCard profile={profile.data} />
          <PrivacyCard />
          {extra}
        </div>
      )}
    </div>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, resetField, watch, setValue, formState: { errors, isDirty } } = useSchemaForm<ProfileFormInput>({
    resolver: zodResolver(ProfileFormInput),
    defaultValues: pickEditable(profile),
  });
  useEffect(() => reset(pickEditable(profile)), [profile, reset]);
  // A new address is confirmed in a dialog (current password, then the code sent to it).
  const [newEmail, setNewEmail] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateProfileRequest,
    onSuccess: (data) => {
      queryClient.setQueryData(profileKey, data);
      // Country, business status and VAT ID decide the shop's prices (issue 24).
      void queryClient.invalidateQueries({ queryKey: ['shop', 'tax'] });
      toast.success(messages.profileSaved);
    },
    onError: (err) => toast.error(errorText(err, messages.profileSaveFailed), { duration: 7000 }),
  });
  const business = watch('business');
  const country = watch('country');
  // Issue 24: a VAT ID is asked for EU companies only (for Germany it is optional).
  const asksVatId = business && isEuMember(country);

  return (
    <Card className="p-6">
      <form onSubmit={handleSubmit((values) => {
        const { email, ...entered } = values;
        // A consumer or a company outside the EU has no VAT ID to send (the field is hidden then).
        const fields = { ...entered, vatId: entered.business && isEuMember(entered.country) ? entered.vatId : '' };
        const saved = pickEditable(profile);
        if ((Object.keys(fields) as (keyof UpdateProfileInput)[]).some((k) => fields[k] !== saved[k])) save.mutate(fields);
        if (email.toLowerCase() !== profile.email.toLowerCase()) setNewEmail(email);
      })} noValidate className="space-y-8">
        <section aria-labelledby="contact-heading" className="space-y-4">
          <h2 id="contact-heading" className="text-lg font-semibold text-slate-900">Kontaktdaten</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Benutzername" value={profile.username} readOnly disabled hint={`Kundennummer ${profile.customerId}`} />
            <Field label="E-Mail" type="email" autoComplete="email" {...register('email')} error={errors.email?.message}
              hint="Eine neue Adresse bestätigen Sie mit Ihrem Passwort und einem Code, den wir an die neue Adresse senden." />
            <Field label="Telefon" type="tel" autoComplete="tel" {...register('phone')} error={errors.phone?.message} />
          </div>
        </section>
        <section aria-labelledby="address-heading" className="space-y-4">
          <h2 id="address-heading" className="text-lg font-semibold text-slate-900">Adresse</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Straße und Hausnummer" autoComplete="street-address" className="sm:col-span-2" {...register('street')} error={errors.street?.message} />
            <Field label="Postleitzahl" autoComplete="postal-code" {...register('zipCode')} error={errors.zipCode?.message} />
            <Field label="Stadt" autoComplete="address-level2" {...register('city')} error={errors.city?.message} />
            <div className="space-y-1.5">
              <label htmlFor="country" className="block text-sm font-medium text-slate-800">Land</label>
              <select id="country" className={inputClass} {...register('country')}>
                <CountryOptions />
              </select>
            </div>
          </div>
        </section>
        <section aria-labelledby="company-heading" className="space-y-4">
          <h2 id="company-heading" className="text-lg font-semibold text-slate-900">Unternehmen</h2>
          <div className="flex items-start justify-between gap-4">
            <div>
              <p id="business-label" className="font-medium text-slate-900">Firmenkunde</p>
              <p id="business-hint" className="text-sm text-slate-600">Sie kaufen für ein Unternehmen. Mit einer geprüften USt-IdNr. aus einem anderen EU-Staat berechnen wir keine deutsche Umsatzsteuer (Reverse Charge).</p>
            </div>
            <Switch.Root
              checked={business}
              onCheckedChange={(on) => setValue('business', on, { shouldDirty: true, shouldValidate: !!errors.companyName })}
              aria-labelledby="business-label"
              aria-describedby="business-hint"
              className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition-colors data-[state=checked]:bg-green-600"
            >
              <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
            </Switch.Root>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={business ? 'Firmenname (Pflichtfeld)' : 'Firmenname'} autoComplete="organization" {...register('companyName')} error={errors.companyName?.message} />
            <Field label="Branche" {...register('industry')} error={errors.industry?.message} />
            {asksVatId && (
              <Field label="USt-IdNr." className="sm:col-span-2" autoComplete="off" spellCheck={false} placeholder={country === 'GR' ? 'EL…' : `${country}…`} {...register('vatId')} error={errors.vatId?.message}
                hint={country === 'DE' ? 'Freiwillig: Für Unternehmen in Deutschland berechnen wir immer deutsche Umsatzsteuer.' : 'Wir prüfen die Nummer beim Speichern beim Prüfdienst der EU bzw. des Bundeszentralamts für Steuern.'} />
            )}
          </div>
          {asksVatId && profile.vatId && (profile.vatCheck?.vatId === profile.vatId ? (
            <Alert tone={profile.vatCheck.status === 'valid' ? 'success' : 'warning'} data-testid="vat-check-result">
              {profile.vatCheck.message}
              {profile.vatCheck.status === 'unavailable' && <RecheckButton profile={profile} save={save.mutate} pending={save.isPending} />}
            </Alert>
          ) : (
            <Alert tone="info" data-testid="vat-check-result">
              {profileMessages.vatIdNotChecked}
              <RecheckButton profile={profile} save={save.mutate} pending={save.isPending} />
            </Alert>
          ))}
        </section>
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending} disabled={!isDirty}>Änderungen speichern</Button>
        </div>
      </form>
      {newEmail && (
        <ChangeEmailDialog key={newEmail} newEmail={newEmail} onDone={(changed) => {
          if (!changed) resetField('email');
          setNewEmail(null);
        }} />
      )}
    </Card>
  );
}

/**
 * Two steps: the current password sends a code to the new address (the answer is the same whether the
 * address can be used or not), then the code makes the change. Until then the old address stays.
 */
function ChangeEmailDialog({ newEmail, onDone }: { newEmail: string; onDone: (changed: boolean) => void }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: changeEmailRequest,
    onSuccess: (data) => {
      setSent(data.message);
      setPassword('');
      setError(null);
    },
    onError: (err) => setError(errorText(err, messages.emailChangeFailed)),
  });
  const confirm = useMutation({
    mutationFn: confirmEmailChangeRequest,
    onSuccess: (data) => {
      queryClient.setQueryData(profileKey, data);
      toast.success(messages.emailChanged);
      onDone(true);
    },
    onError: (err) => setError(errorText(err, messages.emailChangeFailed)),
  });
  const sendCode = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ChangeEmailInput.safeParse({ newEmail, currentPassword: password });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? messages.invalidInput);
    request.mutate(parsed.data);
  };
  const confirmCode = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ConfirmEmailChangeInput.safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? messages.codeIncomplete);
    confirm.mutate(parsed.data);
  };
  return (
    <Modal open onOpenChange={(open) => { if (!open) onDone(false); }} title="E-Mail-Adresse ändern" description={`Neue Adresse: ${newEmail}`}>
      {sent === null ? (
        <form onSubmit={sendCode} noValidate className="space-y-4">
          <p className="text-sm text-slate-600">Bitte bestätigen Sie die Änderung mit Ihrem aktuellen Passwort. Wir senden dann einen Code an die neue Adresse.</p>
          <Field label="Aktuelles Passwort" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
          {error && <Alert tone="error">{error}</Alert>}
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => onDone(false)}>Abbrechen</Button>
            <Button type="submit" loading={request.isPending} disabled={!password}>Code senden</Button>
          </div>
        </form>
      ) : (
        <form onSubmit={confirmCode} noValidate className="space-y-4">
          <Alert tone="info">{sent} Der Code ist 10 Minuten gültig.</Alert>
          <CodeInput value={code} onChange={setCode} length={4} label="Code aus der E-Mail" normalize={normalizeAlnum} invalid={confirm.isError} autoFocus />
          {error && <Alert tone="error">{error}</Alert>}
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => onDone(false)}>Abbrechen</Button>
            <Button type="submit" loading={confirm.isPending}>Bestätigen</Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

/** Saves the profile as it is: the server checks the VAT ID again when its last check gave no decision. */
function RecheckButton({ profile, save, pending }: { profile: Profile; save: (input: UpdateProfileInput) => void; pending: boolean }) {
  const { email: _email, ...fields } = pickEditable(profile);
  return <>{' '}<button type="button" className="font-medium underline disabled:opacity-60" disabled={pending} onClick={() => save(fields)}>Jetzt prüfen</button></>;
}

const pickEditable = (p: Profile): ProfileFormInput => ({
  email: p.email, phone: p.phone, street: p.street, zipCode: p.zipCode, city: p.city, country: p.country, companyName: p.companyName, industry: p.industry,
  business: p.business, vatId: p.vatId,
});


function SecurityCard({ profile }: { profile: Profile }) {
  const [passwordOpen, setPasswordOpen] = useState(false);
  // Chosen when the switch is pressed, so the enrolment dialog stays open after MFA became active.
  const [mfaDialog, setMfaDialog] = useState<'enable' | 'disable' | null>(null);
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Sicherheit</h2>
      <div className="mt-4 divide-y divide-slate-200">
        <div className="flex flex-wrap items-center justify-between gap-4 py-4">
          <div className="flex items-start gap-3">
            <KeyRound className="mt-0.5 size-5 text-slate-500" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Passwort</p>
              <p className="text-sm text-slate-600">Nach der Änderung werden alle anderen Sitzungen abgemeldet.</p>
            </div>
          </div>
          <Button variant="outline" onClick={() => setPasswordOpen(true)}>Passwort ändern</Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-4 py-4">
          <div className="flex items-start gap-3">
            <ShieldCheck className="mt-0.5 size-5 text-slate-500" aria-hidden="true" />
            <div>
              <p id="mfa-label" className="font-medium text-slate-900">Zwei-Faktor-Authentifizierung</p>
              <p className="text-sm text-slate-600">{profile.mfaEnabled ? 'Aktiv: Beim Login wird ein Code aus Ihrer Authenticator-App abgefragt.' : 'Schützen Sie Ihr Konto zusätzlich mit einer Authenticator-App (TOTP).'}</p>
            </div>
          </div>
          <Switch.Root
            checked={profile.mfaEnabled}
            onCheckedChange={() => setMfaDialog(profile.mfaEnabled ? 'disable' : 'enable')}
            aria-labelledby="mfa-label"
            className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition-colors data-[state=checked]:bg-green-600"
          >
            <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
          </Switch.Root>
        </div>
      </div>
      <ChangePasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
      <EnableMfaDialog open={mfaDialog === 'enable'} onOpenChange={(o) => setMfaDialog(o ? 'enable' : null)} />
      <DisableMfaDialog open={mfaDialog === 'disable'} onOpenChange={(o) => setMfaDialog(o ? 'disable' : null)} />
    </Card>
  );
}

function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clear = () => { setCurrent(''); setNext(''); setConfirm(''); setError(null); };
  const mutation = useMutation({
    mutationFn: changePasswordRequest,
    onSuccess: (data) => {
      setToken(data.token);
      toast.success(messages.passwordChanged);
      clear();
      onOpenChange(false);
    },
    onError: (err) => {
      setError(errorText(err, messages.passwordChangeFailed));
      toast.error(messages.passwordChangeFailed);
    },
  });
  const rulesMet = passwordMeetsRules(next, changePasswordRules);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!current) return setError(messages.currentPasswordRequired);
    if (!rulesMet) return setError(messages.passwordRulesUnmet);
    mutation.mutate({ currentPassword: current, newPassword: next });
  };
  return (
    <Modal open={open} onOpenChange={(o) => { if (!o) clear(); onOpenChange(o); }} title="Passwort ändern">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Aktuelles Passwort" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <Field label="Neues Passwort" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        <PasswordChecklist password={next} rules={changePasswordRules} />
        <Field label="Neues Passwort bestätigen" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)}
          error={confirm && confirm !== next ? 'Die Passwörter stimmen nicht überein' : undefined} />
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>Abbrechen</Button>
          <Button type="submit" loading={mutation.isPending} disabled={next !== confirm || !next}>Passwort ändern</Button>
        </div>
      </form>
    </Modal>
  );
}

function EnableMfaDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const setup = useMutation({ mutationFn: mfaSetupRequest });
  const { mutate: startSetup, reset: resetSetup } = setup;
  const enable = useMutation({
    mutationFn: mfaEnableRequest,
    onSuccess: (data) => {
      setBackupCodes(data.backupCodes);
      void queryClient.invalidateQueries({ queryKey: profileKey });
      toast.success('Die Zwei-Faktor-Authentifizierung ist jetzt aktiv.');
    },
  });
  useEffect(() => {
    if (open) startSetup();
    else {
      setCode('');
      setBackupCodes(null);
      resetSetup();
    }
  }, [open, startSetup, resetSetup]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) return;
    enable.mutate({ code });
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Zwei-Faktor-Authentifizierung einrichten" description={backupCodes ? 'Bewahren Sie diese Backup-Codes sicher auf. Sie werden nur jetzt angezeigt.' : 'Scannen Sie den QR-Code mit einer Authenticator-App (z. B. FreeOTP, Aegis, Google Authenticator) und geben Sie den angezeigten Code ein.'}>
      {backupCodes ? (
        <div className="space-y-4">
          <ul className="grid grid-cols-2 gap-2 rounded-lg bg-slate-100 p-4 font-mono text-sm" aria-label="Backup-Codes">
            {backupCodes.map((c) => <li key={c}>{c}</li>)}
          </ul>
          <p className="text-sm text-slate-600">Jeder Code funktioniert genau einmal, falls Sie keinen Zugriff auf Ihre App haben („Backup-Code verwenden“ beim Login).</p>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(backupCodes.join('\n')).then(() => toast.success('Backup-Codes kopiert.'))}>Kopieren</Button>
            <Button onClick={() => onOpenChange(false)}>Fertig</Button>
          </div>
        </div>
      ) : setup.isPending || !setup.data ? (
        setup.isError ? <Alert tone="error">{errorText(setup.error, messages.genericError)}</Alert> : <Spinner label="QR-Code wird erstellt …" />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <img src={setup.data.qrDataUrl} alt="QR-Code für die Authenticator-App" width={220} height={220} className="mx-auto rounded-lg border border-slate-200" />
          <p className="text-center text-sm text-slate-600">Manuelle Eingabe: <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-900" data-testid="totp-secret">{setup.data.secret}</code></p>
          <CodeInput value={code} onChange={setCode} length={6} label="Code aus der App" normalize={normalizeDigits} inputMode="numeric" invalid={enable.isError} />
          {enable.isError && <Alert tone="error">{errorText(enable.error, messages.mfaWrongCode)}</Alert>}
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => onOpenChange(false)}>Abbrechen</Button>
            <Button type="submit" loading={enable.isPending} disabled={code.length !== 6}>Aktivieren</Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function DisableMfaDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: mfaDisableRequest,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: profileKey });
      toast.success('Die Zwei-Faktor-Authentifizierung wurde deaktiviert.');
      setPassword('');
      setCode('');
      onOpenChange(false);
    },
  });
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Zwei-Faktor-Authentifizierung deaktivieren" description="Bestätigen Sie mit Ihrem Passwort und einem aktuellen Code aus Ihrer App.">
      <form onSubmit={(e) => { e.preventDefault(); disable.mutate({ password, code }); }} noValidate className="space-y-4">
        <Field label="Passwort" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <CodeInput value={code} onChange={setCode} length={6} label="Code aus der App" normalize={normalizeDigits} inputMode="numeric" />
        {disable.isError && <Alert tone="error">{errorText(disable.error, messages.genericError)}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>Abbrechen</Button>
          <Button type="submit" variant="danger" loading={disable.isPending} disabled={!password || code.length !== 6}>Deaktivieren</Button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Datenschutz: the data export (Art. 15/20 DSGVO) for every account; "Konto löschen" for customers
 * (staff accounts are closed by the owner). docs/decisions/018.
 */
function PrivacyCard() {
  const isCustomer = useSession().claims?.role === 'customer';
  const [deleteOpen, setDeleteOpen] = useState(false);
  const exportData = useMutation({
    mutationFn: exportMyDataRequest,
    onSuccess: () => toast.success(pm.exportReady),
    onError: (err) => toast.error(err instanceof Error && err.message ? err.message : pm.exportFailed, { duration: 7000 }),
  });
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Datenschutz</h2>
      <div className="mt-4 divide-y divide-slate-200">
        <div className="flex flex-wrap items-center justify-between gap-4 py-4">
          <div className="flex min-w-0 items-start gap-3">
            <Download className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
            <div className="min-w-0">
              <p className="font-medium text-slate-900">Meine Daten exportieren</p>
              <p className="text-sm text-slate-600">Ein ZIP-Archiv mit allen zu Ihrem Konto gespeicherten Daten (daten.json) sowie allen Rechnungen als PDF und E-Rechnung (Art. 15 und 20 DSGVO).</p>
            </div>
          </div>
          <Button variant="outline" loading={exportData.isPending} onClick={() => exportData.mutate()}>Meine Daten exportieren</Button>
        </div>
        {isCustomer && (
          <div className="flex flex-wrap items-center justify-between gap-4 py-4">
            <div className="flex min-w-0 items-start gap-3">
              <Trash2 className="mt-0.5 size-5 shrink-0 text-red-600" aria-hidden="true" />
              <div className="min-w-0">
                <p className="font-medium text-slate-900">Konto löschen</p>
                <p className="text-sm text-slate-600">Ihre persönlichen Daten werden entfernt und Sie werden abgemeldet. Rechnungen bewahren wir auf, solange das Gesetz es verlangt (8 Jahre nach Ende des Rechnungsjahres). Nicht möglich, solange Server aktiv oder Rechnungen offen sind.</p>
              </div>
            </div>
            <Button variant="danger" onClick={() => setDeleteOpen(true)}>Konto löschen</Button>
          </div>
        )}
      </div>
      {isCustomer && <DeleteAccountDialog open={deleteOpen} onOpenChange={setDeleteOpen} />}
    </Card>
  );
}

function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: deleteAccountRequest,
    onSuccess: (data) => {
      // The login page shows the confirmation (whichever redirect gets there first).
      setFlashNotice(data.message);
      navigate(paths.login, { replace: true });
      clearToken();
      queryClient.clear();
    },
    onError: (err) => setError(errorText(err, pm.accountDeleteFailed)),
  });
  const close = (o: boolean) => {
    if (!o) { setPassword(''); setError(null); }
    onOpenChange(o);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = DeleteAccountInput.safeParse({ currentPassword: password });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? messages.invalidInput);
    setError(null);
    remove.mutate(parsed.data);
  };
  return (
    <Modal open={open} onOpenChange={close} title="Konto löschen" description="Diese Aktion kann nicht rückgängig gemacht werden.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-700">Ihre persönlichen Daten, Notizen, Nachrichtenverläufe und hochgeladenen Dateien werden gelöscht, alle Sitzungen beendet. Rechnungen und Gutschriften bleiben wegen der gesetzlichen Aufbewahrungspflicht erhalten. Bitte bestätigen Sie mit Ihrem Passwort.</p>
        <Field label="Aktuelles Passwort" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        {error && <Alert tone="error">{error}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" variant="danger" loading={remove.isPending} disabled={!password}>Konto endgültig löschen</Button>
        </div>
      </form>
    </Modal>
  );
}
