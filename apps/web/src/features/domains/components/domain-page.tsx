import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, Copy, KeyRound, Lock, RefreshCw, Server } from 'lucide-react';
import { DomainNameserversInput, PROVIDER_DNS_LABEL, PROVIDER_NAMESERVERS, type DomainDetail } from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useMyDomain, useRevealAuthCode, useSetAutoRenew, useSetNameservers, useSetTransferLock } from '../api/my-domains.ts';
import { NameserverInputs } from './nameserver-inputs.tsx';
import { Choice, DomainStatusBadge, berlinDate } from './domain-status.tsx';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.status !== 0 && err.status < 500 ? err.message : err instanceof ApiRequestError && err.status === 503 ? err.message : fallback);

/** /dashboard/domains/{id}: one own domain — state, nameservers, transfer lock, renewal choice, auth code. */
export default function DomainPage() {
  const { domainId = '' } = useParams();
  const query = useMyDomain(domainId);
  if (query.isPending) return <Spinner label="Lade Domain …" />;
  if (query.isError) {
    if (query.error instanceof ApiRequestError && (query.error.status === 404 || query.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{errorText(query.error, 'Die Domain konnte nicht geladen werden.')} <button type="button" className="font-medium underline" onClick={() => query.refetch()}>Erneut versuchen</button></Alert>;
  }
  const d = query.data;
  const active = d.status === 'active';
  return (
    <div className="mx-auto min-w-0 max-w-4xl">
      <PageMeta title={d.unicode} />
      <Link to={paths.dashboard.root} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Zur Übersicht</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-full">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-bold text-slate-900 [overflow-wrap:anywhere]">{d.unicode}</h1>
            <span aria-live="polite"><DomainStatusBadge status={d.status} /></span>
          </div>
          <p className="mt-1 break-words text-sm text-slate-600">
            {d.unicode !== d.domain && <>{d.domain} · </>}
            {d.expiresAt ? <>Bezahlt bis {berlinDate.format(new Date(d.expiresAt))}</> : 'Ablaufdatum folgt nach der Registrierung'}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {d.renewable && <Link to={paths.shop.domainRenew(d.id)} className={buttonClass('primary', 'sm')}><RefreshCw className="size-4" aria-hidden="true" /> Verlängern</Link>}
          {active && <Link to={`${paths.shop.webhosting}?domain=${encodeURIComponent(d.domain)}`} className={buttonClass('outline', 'sm')}>Mit Webhosting nutzen</Link>}
        </div>
      </header>
      <DomainState detail={d} />
      <div className="mt-6 space-y-6">
        <NameserversCard detail={d} />
        <TransferLockCard detail={d} />
        <RenewalCard detail={d} />
        <AuthCodeCard detail={d} />
      </div>
    </div>
  );
}

function DomainState({ detail: d }: { detail: DomainDetail }) {
  let content: ReactNode = null;
  if (d.status === 'registering' || d.status === 'transferring') {
    content = (
      <Alert tone="info" className="flex items-center gap-2">
        <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
        <span>{d.status === 'registering'
          ? 'Ihre Domain wird bei der Vergabestelle registriert. Das dauert meist nur Sekunden; diese Seite aktualisiert sich selbst.'
          : 'Der Transfer läuft: Der bisherige Anbieter muss ihn freigeben, das dauert bis zu fünf Tage. Diese Seite aktualisiert sich selbst.'}</span>
      </Alert>
    );
  } else if (d.status === 'failed') {
    content = <Alert tone="error">{d.statusMessage ?? 'Der Auftrag ist fehlgeschlagen.'} Die Zahlung wird automatisch erstattet; Sie erhalten dazu eine E-Mail.</Alert>;
  } else if (d.status === 'expired') {
    content = <Alert tone="warning">Die Domain ist abgelaufen.{d.renewableUntil ? ` Sie können sie bis zum ${berlinDate.format(new Date(d.renewableUntil))} noch verlängern; danach geben wir sie frei.` : ''}</Alert>;
  }
  return <div className="mt-4 empty:hidden" aria-live="polite">{content}</div>;
}

function Section({ icon: Icon, title, id, children }: { icon: typeof Server; title: string; id: string; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-5 sm:p-6" role="region" aria-labelledby={id}>
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Icon className="size-5 text-brand-700" aria-hidden="true" /> {title}</h2>
      <div className="mt-3">{children}</div>
    </Card>
  );
}

const notActiveHint = 'Änderungen sind möglich, sobald die Domain aktiv ist.';

function NameserversCard({ detail: d }: { detail: DomainDetail }) {
  const id = useId();
  const save = useSetNameservers(d.id);
  const [dns, setDns] = useState<'provider' | 'own'>(d.providerDns ? 'provider' : 'own');
  const [own, setOwn] = useState(() => (d.providerDns ? ['', '', '', ''] : [...d.nameservers, '', '', '', ''].slice(0, 4)));
  const [error, setError] = useState<string | undefined>();
  const active = d.status === 'active';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { nameservers: dns === 'provider' ? ('provider' as const) : own.map((n) => n.trim()).filter(Boolean) };
    const parsed = DomainNameserversInput.safeParse(input);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync(parsed.data);
      toast.success('Die Nameserver wurden gespeichert. Änderungen im DNS werden weltweit innerhalb von bis zu 24 Stunden sichtbar.');
    } catch (err) {
      const message = errorText(err, 'Die Nameserver konnten nicht gespeichert werden.');
      setError(message);
      toast.error(message, { duration: 9000 });
    }
  };
  return (
    <Section icon={Server} title="Nameserver" id={`${id}-h`}>
      <p className="text-sm text-slate-600">Aktuell: <span className="break-all font-medium text-slate-900">{d.nameservers.join(', ')}</span>{d.providerDns && ` (${PROVIDER_DNS_LABEL})`}</p>
      <form onSubmit={submit} noValidate className="mt-4">
        <fieldset disabled={!active || save.isPending}>
          <legend className="sr-only">Nameserver wählen</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <Choice checked={dns === 'provider'} title={PROVIDER_DNS_LABEL} text={PROVIDER_NAMESERVERS.join(', ')}>
              <input type="radio" name={`${id}-dns`} value="provider" checked={dns === 'provider'} onChange={() => setDns('provider')} className="sr-only" />
            </Choice>
            <Choice checked={dns === 'own'} title="Eigene Nameserver" text="Zwei bis vier Nameserver Ihres DNS-Anbieters.">
              <input type="radio" name={`${id}-dns`} value="own" checked={dns === 'own'} onChange={() => setDns('own')} className="sr-only" />
            </Choice>
          </div>
          {dns === 'own' && <NameserverInputs idPrefix={`${id}-ns`} values={own} onChange={setOwn} error={error} />}
          {dns === 'provider' && error && <p role="alert" className="mt-2 text-sm font-medium text-red-700">{error}</p>}
          <Button type="submit" size="sm" className="mt-4" loading={save.isPending}>Nameserver speichern</Button>
        </fieldset>
        {!active && <p className="mt-2 text-sm text-slate-600">{notActiveHint}</p>}
      </form>
    </Section>
  );
}

function TransferLockCard({ detail: d }: { detail: DomainDetail }) {
  const id = useId();
  const save = useSetTransferLock(d.id);
  const toggle = () => save.mutateAsync({ locked: !d.transferLock }).then(
    (next) => toast.success(next.transferLock ? 'Die Transfersperre ist an.' : 'Die Transfersperre ist aus. Ein anderer Anbieter kann die Domain jetzt mit dem Auth-Code übernehmen.'),
    (err: unknown) => toast.error(errorText(err, 'Die Transfersperre konnte nicht geändert werden.'), { duration: 9000 }),
  );
  return (
    <Section icon={Lock} title="Transfersperre" id={`${id}-h`}>
      <p className="text-sm text-slate-700">
        {d.transferLock ? 'An: Kein anderer Anbieter kann die Domain übernehmen, auch nicht mit dem Auth-Code.' : 'Aus: Mit dem Auth-Code kann ein anderer Anbieter die Domain übernehmen.'}
      </p>
      <Button size="sm" variant="outline" className="mt-3" onClick={() => void toggle()} loading={save.isPending} disabled={d.status !== 'active'} aria-pressed={d.transferLock}>
        {d.transferLock ? 'Transfersperre ausschalten' : 'Transfersperre einschalten'}
      </Button>
      {d.status !== 'active' && <p className="mt-2 text-sm text-slate-600">{notActiveHint}</p>}
    </Section>
  );
}

function RenewalCard({ detail: d }: { detail: DomainDetail }) {
  const id = useId();
  const save = useSetAutoRenew(d.id);
  const choose = (autoRenew: boolean) => {
    if (autoRenew === d.autoRenew) return;
    void save.mutateAsync({ autoRenew }).then(
      () => toast.success(autoRenew ? 'Wir erinnern Sie rechtzeitig vor Ablauf.' : 'Die Domain läuft zum Ablaufdatum aus; Sie erhalten keine Erinnerungen.'),
      (err: unknown) => toast.error(errorText(err, 'Die Einstellung konnte nicht gespeichert werden.'), { duration: 9000 }),
    );
  };
  return (
    <Section icon={RefreshCw} title="Verlängerung" id={`${id}-h`}>
      <fieldset disabled={save.isPending || d.status === 'failed'}>
        <legend className="text-sm text-slate-700">Wie soll es nach dem {d.expiresAt ? berlinDate.format(new Date(d.expiresAt)) : 'Ablaufdatum'} weitergehen?</legend>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <Choice checked={d.autoRenew} title="Verlängern (mit Erinnerung)" text="7 Tage und 1 Tag vor Ablauf erhalten Sie eine E-Mail mit Zahlungslink. Wir buchen nichts automatisch ab.">
            <input type="radio" name={`${id}-renew`} checked={d.autoRenew} onChange={() => choose(true)} className="sr-only" />
          </Choice>
          <Choice checked={!d.autoRenew} title="Auslaufen lassen" text="Keine Erinnerungen; die Domain läuft zum Ablaufdatum aus und wird nach der Kulanzfrist freigegeben.">
            <input type="radio" name={`${id}-renew`} checked={!d.autoRenew} onChange={() => choose(false)} className="sr-only" />
          </Choice>
        </div>
      </fieldset>
    </Section>
  );
}

function AuthCodeCard({ detail: d }: { detail: DomainDetail }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <Section icon={KeyRound} title="Auth-Code" id={`${id}-h`}>
      <p className="text-sm text-slate-700">Mit dem Auth-Code ziehen Sie die Domain zu einem anderen Anbieter um. Schalten Sie dafür auch die Transfersperre aus.</p>
      <Button size="sm" variant="outline" className="mt-3" onClick={() => setOpen(true)} disabled={d.status !== 'active'}>Auth-Code anzeigen</Button>
      {d.status !== 'active' && <p className="mt-2 text-sm text-slate-600">{notActiveHint}</p>}
      {open && <AuthCodeDialog domainId={d.id} domain={d.unicode} onClose={() => setOpen(false)} />}
    </Section>
  );
}

function AuthCodeDialog({ domainId, domain, onClose }: { domainId: string; domain: string; onClose: () => void }) {
  const reveal = useRevealAuthCode(domainId);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('Bitte geben Sie Ihr Passwort ein.');
      return;
    }
    setError(undefined);
    try {
      await reveal.mutateAsync(password);
    } catch (err) {
      setError(errorText(err, 'Der Auth-Code konnte nicht abgerufen werden.'));
    }
  };
  const code = reveal.data?.authCode;
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`Auth-Code für ${domain}`}
      description="Zu Ihrer Sicherheit bestätigen Sie die Anzeige mit Ihrem Passwort. Die Anzeige wird protokolliert.">
      {code ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">Geben Sie diesen Code beim neuen Anbieter ein:</p>
          <p className="break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg text-slate-900" aria-label="Auth-Code">{code}</p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose}>Schließen</Button>
            <Button onClick={() => void navigator.clipboard?.writeText(code).then(() => toast.success('Auth-Code kopiert.'), () => toast.error('Kopieren ist hier nicht möglich. Bitte markieren Sie den Code.'))}>
              <Copy className="size-4" aria-hidden="true" /> Kopieren
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <Field label="Passwort" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={error} autoFocus />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onClose} disabled={reveal.isPending}>Abbrechen</Button>
            <Button type="submit" loading={reveal.isPending}>Auth-Code anzeigen</Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
