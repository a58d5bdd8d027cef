import { useState, type ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { AlertTriangle, ArrowLeft, ExternalLink, KeyRound, RefreshCw } from 'lucide-react';
import type { StorageDetail } from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useResetStoragePassword, useStorage } from '../api/storage.ts';
import { CopyButton } from './copy-button.tsx';
import { errorText, formatBytes, formatDate } from './format.ts';
import { StorageHowTos } from './how-tos.tsx';
import { StorageStatusBadge } from './status-badge.tsx';

const DAY_MS = 86_400_000;
const externalLink = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * A cloud storage account (issue 23): state, usage, the access data for the web interface, the apps
 * and the network drive, a new password shown once, and how-tos per device.
 */
export default function StoragePage() {
  const { storageId = '' } = useParams();
  const storage = useStorage(storageId);

  if (storage.isPending) return <Spinner label="Cloud-Speicher wird geladen …" />;
  if (storage.isError) {
    if (storage.error instanceof ApiRequestError && (storage.error.status === 404 || storage.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{storage.error.message} <button type="button" className="underline" onClick={() => storage.refetch()}>Erneut versuchen</button></Alert>;
  }
  const detail = storage.data;
  const usable = detail.status === 'active';

  return (
    <div className="mx-auto min-w-0 max-w-6xl">
      <PageMeta title={`Cloud-Speicher ${detail.accountName}`} />
      <Link to={paths.dashboard.root} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Zur Übersicht</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-full">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-bold text-slate-900 [overflow-wrap:anywhere]">Cloud-Speicher {detail.accountName}</h1>
            <span aria-live="polite"><StorageStatusBadge status={detail.status} /></span>
          </div>
          <p className="mt-1 text-sm text-slate-600">Speicher-ID {detail.number} · Tarif {detail.planName}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {usable && (
            <a href={detail.webUrl} {...externalLink} className={buttonClass('primary', 'sm')}>
              <ExternalLink className="size-4" aria-hidden="true" /> Nextcloud öffnen<span className="sr-only"> (neues Fenster)</span>
            </a>
          )}
          {detail.status !== 'provisioning' && detail.status !== 'failed' && (
            <Link to={paths.shop.cloudStorageRenew(detail.id)} className={buttonClass('outline', 'sm')}><RefreshCw className="size-4" aria-hidden="true" /> Tarif wechseln / verlängern</Link>
          )}
        </div>
      </header>
      <AccountState detail={detail} />
      {detail.liveError && <Alert tone="warning" className="mt-4">{detail.liveError}</Alert>}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <UsageCard detail={detail} />
        <Card className="p-5 sm:p-6">
          <h2 className="text-lg font-semibold text-slate-900">Vertrag</h2>
          <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
            <Row label="Status" value={<StorageStatusBadge status={detail.status} />} />
            <Row label="Tarif" value={detail.planName} />
            <Row label="Speicherplatz" value={formatBytes(detail.quotaBytes)} />
            <Row label="Läuft bis" value={formatDate(detail.expiresAt)} />
          </dl>
        </Card>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <AccessCard detail={detail} />
        <PasswordCard detail={detail} />
      </div>

      <div className="mt-6"><StorageHowTos detail={detail} /></div>
    </div>
  );
}

/** The day the account and its files are deleted: the term's end plus the grace days. */
export const deletionDate = (detail: Pick<StorageDetail, 'expiresAt' | 'graceDays'>) =>
  (detail.expiresAt ? new Date(new Date(detail.expiresAt).getTime() + detail.graceDays * DAY_MS).toISOString() : null);

function AccountState({ detail }: { detail: StorageDetail }) {
  let content: ReactNode = null;
  if (detail.status === 'provisioning') {
    content = (
      <Alert tone="info" className="flex items-center gap-2">
        <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
        <span>Ihr Cloud-Speicher wird eingerichtet. Das dauert meist nur einen Moment; diese Seite aktualisiert sich selbst.{detail.statusMessage ? ` ${detail.statusMessage}` : ''}</span>
      </Alert>
    );
  } else if (detail.status === 'failed') {
    content = <Alert tone="error">{detail.statusMessage ?? 'Die Einrichtung ist fehlgeschlagen.'} Die Zahlung wird automatisch erstattet; Sie erhalten dazu eine E-Mail.</Alert>;
  } else if (detail.status === 'suspended') {
    const deletion = deletionDate(detail);
    content = (
      <Alert tone="warning" className="flex gap-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">Ihr Cloud-Speicher ist gesperrt.{detail.statusMessage ? ` ${detail.statusMessage}` : ''}</p>
          <p className="mt-1">
            {deletion
              ? <>Wenn Sie ihn nicht verlängern, werden das Konto und alle Dateien {detail.graceDays} Tage nach dem Laufzeitende ({formatDate(detail.expiresAt)}) gelöscht, also am {formatDate(deletion)}.</>
              : <>Wenn Sie ihn nicht verlängern, werden das Konto und alle Dateien {detail.graceDays} Tage nach dem Laufzeitende gelöscht.</>}
            {' '}<Link to={paths.shop.cloudStorageRenew(detail.id)} className="font-semibold underline">Jetzt verlängern</Link>
          </p>
        </div>
      </Alert>
    );
  }
  return <div className="mt-4 empty:hidden" aria-live="polite">{content}</div>;
}

function UsageCard({ detail }: { detail: StorageDetail }) {
  const used = detail.usedBytes;
  const percent = used === null ? 0 : Math.max(0, Math.min(100, (used / Math.max(1, detail.quotaBytes)) * 100));
  const text = used === null ? null : `${formatBytes(used)} von ${formatBytes(detail.quotaBytes)} belegt`;
  const high = percent >= 90;
  return (
    <Card className="p-5 sm:p-6">
      <h2 id="storage-usage-heading" className="text-lg font-semibold text-slate-900">Belegter Speicher</h2>
      {text === null ? (
        <p className="mt-3 text-sm text-slate-600">Die Belegung kann gerade nicht abgefragt werden. Speicherplatz im Tarif: {formatBytes(detail.quotaBytes)}.</p>
      ) : (
        <>
          <p className="mt-3 text-sm font-semibold text-slate-900">{text}</p>
          <div className="mt-3 h-3 rounded-full bg-slate-200" role="progressbar" aria-labelledby="storage-usage-heading" aria-valuemin={0} aria-valuemax={100}
            aria-valuenow={Math.round(percent)} aria-valuetext={`${text} (${Math.round(percent)} %)`}>
            <div className={`h-3 rounded-full transition-[width] ${high ? 'bg-red-600' : 'bg-brand-600'}`} style={{ width: `${percent}%` }} />
          </div>
          {high && <p className="mt-2 text-sm text-red-700">Ihr Speicher ist fast voll. Löschen Sie Dateien oder wechseln Sie in einen größeren Tarif.</p>}
        </>
      )}
    </Card>
  );
}

function AccessCard({ detail }: { detail: StorageDetail }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">Zugangsdaten</h2>
      <dl className="mt-4 space-y-4 text-sm">
        <div>
          <dt className="text-slate-600">Web-Adresse</dt>
          <dd className="mt-0.5 font-medium"><a href={detail.webUrl} {...externalLink} className="break-all text-brand-700 underline">{detail.webUrl}<span className="sr-only"> (neues Fenster)</span></a></dd>
        </div>
        <CopyRow label="WebDAV-Adresse (Netzlaufwerk)" value={detail.webdavUrl} />
        <CopyRow label="Serveradresse für die Apps" value={detail.serverUrl} />
        <CopyRow label="Benutzername" value={detail.accountName} />
      </dl>
    </Card>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className="mt-0.5 flex flex-wrap items-center justify-between gap-2">
        <code className="min-w-0 break-all font-mono text-slate-900">{value}</code>
        <CopyButton value={value} label={`${label} kopieren`} copied={`${label} kopiert.`} />
      </dd>
    </div>
  );
}

/** "Neues Passwort setzen": asks first (the old one stops working), then shows the new one once. */
function PasswordCard({ detail }: { detail: StorageDetail }) {
  const reset = useResetStoragePassword(detail.id);
  const [result, setResult] = useState<{ password: string; message: string } | null>(null);
  const usable = detail.status === 'active';
  const confirm = async () => {
    try {
      setResult(await reset.mutateAsync());
    } catch (err) {
      toast.error(errorText(err, 'Das Passwort konnte nicht gesetzt werden. Bitte versuchen Sie es erneut.'));
      throw err;
    }
  };
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-semibold text-slate-900">Passwort</h2>
      {result ? (
        <div className="mt-3 space-y-3" aria-live="polite">
          <Alert tone="warning">{result.message}</Alert>
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-100 px-3 py-2">
            <code className="min-w-0 break-all font-mono text-base text-slate-900 sm:text-lg" aria-label="Neues Passwort">{result.password}</code>
            <CopyButton value={result.password} label="Passwort kopieren" copied="Passwort kopiert." />
          </div>
          <Button variant="outline" size="sm" onClick={() => setResult(null)}>Passwort ausblenden</Button>
        </div>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700">
            Haben Sie Ihr Passwort vergessen, setzen Sie hier ein neues. Wir erzeugen ein sicheres Passwort und zeigen es Ihnen einmal an; es wird nicht per E-Mail versandt.
          </p>
          <div className="mt-4">
            <ConfirmDialog
              title="Neues Passwort setzen?"
              description="Das bisherige Passwort gilt danach nicht mehr. Apps und Netzlaufwerke, die es verwenden, müssen Sie mit dem neuen Passwort erneut anmelden."
              confirmLabel="Neues Passwort setzen"
              onConfirm={confirm}
              trigger={<Button variant="outline" disabled={!usable} title={usable ? undefined : 'Nur für einen aktiven Cloud-Speicher möglich.'}><KeyRound className="size-4" aria-hidden="true" /> Neues Passwort setzen</Button>}
            />
          </div>
          {!usable && <p className="mt-2 text-sm text-slate-600">Ein neues Passwort können Sie setzen, sobald der Cloud-Speicher aktiv ist.</p>}
        </>
      )}
    </Card>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return <div className="min-w-0"><dt className="text-slate-600">{label}</dt><dd className="mt-0.5 break-words font-medium text-slate-900">{value}</dd></div>;
}
