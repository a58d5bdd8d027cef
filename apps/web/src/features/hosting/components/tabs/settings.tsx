import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Code2, Database, FolderOpen, ShieldCheck, KeyRound } from 'lucide-react';
import { EXECUTION_TIMES, MEMORY_LIMITS, PhpSettingsInput, hostingMessages, type HostingDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card } from '../../../../components/ui/card.tsx';
import { ListState } from '../../../../components/ui/list-state.tsx';
import { SelectField } from '../../../../components/ui/select.tsx';
import { paths } from '../../../../config/paths.ts';
import { useSchemaForm } from '../../../../lib/forms.ts';
import { useSavePhpSettings } from '../../api/hosting.ts';
import { useHostingDatabases, useSetDatabaseUserPassword } from '../../api/databases.ts';
import { useSetFtpPassword, useSetPanelPassword } from '../../api/ftp.ts';
import { errorText, type HostingSite } from '../format.ts';
import { HostingPasswordForm } from '../password-form.tsx';
import { HostingAccessSection } from '../access-section.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';
import { PendingBadge } from '../status-badge.tsx';

/** Einstellungen (spec): PHP, the FTP password, a database user's password and a link to two-factor login. */
export function SettingsTab({ detail }: { detail: HostingDetail }) {
  const site = detail.site;
  return (
    <div className="space-y-6">
      {site ? (
        <>
          <PhpSection detail={detail} site={site} />
          {detail.access === 'owner' ? (
            <>
              <PanelPasswordSection detail={detail} site={site} />
              <FtpPasswordSection detail={detail} site={site} />
              <MysqlPasswordSection detail={detail} />
            </>
          ) : (
            <Card className="p-6" role="region" aria-labelledby="credentials-heading">
              <h2 id="credentials-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><KeyRound className="size-5" aria-hidden="true" /> Zugangsdaten</h2>
              <p className="mt-1 text-sm text-slate-600">{hostingMessages.credentialsOwnerOnly} So bleibt kein Zugang bestehen, wenn die Freigabe endet.</p>
            </Card>
          )}
          <HostingAccessSection detail={detail} />
        </>
      ) : <SiteUnavailable detail={detail} />}
      <Card className="p-6" role="region" aria-labelledby="twofa-heading">
        <h2 id="twofa-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><ShieldCheck className="size-5" aria-hidden="true" /> Zwei-Faktor-Authentifizierung</h2>
        <p className="mt-1 text-sm text-slate-600">
          Die Zwei-Faktor-Authentifizierung schützt Ihr Kundenkonto und damit alle Pakete darin. Sie richten sie in Ihrem Profil ein.
        </p>
        <Link to={paths.dashboard.profile} className="mt-3 inline-block text-sm font-medium text-brand-700 underline hover:text-brand-800">Zur Zwei-Faktor-Einstellung im Profil</Link>
      </Card>
    </div>
  );
}

function PhpSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const save = useSavePhpSettings(detail.id);
  const form = useSchemaForm<PhpSettingsInput>({
    resolver: zodResolver(PhpSettingsInput),
    // The panel's current values, even one outside the offered lists (the schema then names the choice).
    defaultValues: {
      phpVersion: site.phpVersion,
      memoryLimitMb: site.memoryLimitMb as PhpSettingsInput['memoryLimitMb'],
      maxExecutionTimeS: site.maxExecutionTimeS as PhpSettingsInput['maxExecutionTimeS'],
    },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (input) => {
    try {
      const res = await save.mutateAsync(input);
      toast.success(res.message ?? 'Die PHP-Einstellungen wurden gespeichert.');
      form.reset(form.getValues());
    } catch (err) {
      form.setError('root.server', { message: errorText(err, 'Die PHP-Einstellungen konnten nicht gespeichert werden.') });
    }
  });
  // Values the panel reports outside the offered lists stay selectable, so nothing changes unasked.
  const memory = [...new Set([...MEMORY_LIMITS, site.memoryLimitMb])].sort((a, b) => a - b);
  const times = [...new Set([...EXECUTION_TIMES, site.maxExecutionTimeS])].sort((a, b) => a - b);
  const versions = detail.phpVersions.includes(site.phpVersion) ? detail.phpVersions : [site.phpVersion, ...detail.phpVersions];
  return (
    <Card className="p-6" role="region" aria-labelledby="php-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="php-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Code2 className="size-5" aria-hidden="true" /> PHP-Einstellungen</h2>
        <span aria-live="polite">{site.pendingChanges && <PendingBadge />}</span>
      </div>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField label="PHP-Version" error={errors.phpVersion?.message} {...form.register('phpVersion')}>
            {versions.map((v) => <option key={v} value={v}>PHP {v}</option>)}
          </SelectField>
          <SelectField label="Speicherlimit (memory_limit)" error={errors.memoryLimitMb?.message} {...form.register('memoryLimitMb', { valueAsNumber: true })}>
            {memory.map((m) => <option key={m} value={m}>{m} MB</option>)}
          </SelectField>
          <SelectField label="Max. Ausführungszeit" error={errors.maxExecutionTimeS?.message} {...form.register('maxExecutionTimeS', { valueAsNumber: true })}>
            {times.map((t) => <option key={t} value={t}>{t} Sekunden</option>)}
          </SelectField>
        </div>
        <p className="text-sm text-slate-600">Der Webserver übernimmt Änderungen innerhalb etwa einer Minute; ein Neustart ist nicht nötig.</p>
        {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
        <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>Speichern</Button>
      </form>
    </Card>
  );
}

/** The panel's own login: the customer sets its password here, so the panel button leads somewhere usable. */
function PanelPasswordSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const setPassword = useSetPanelPassword(detail.id);
  return (
    <Card className="p-6" role="region" aria-labelledby="panelpw-heading">
      <h2 id="panelpw-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><KeyRound className="size-5" aria-hidden="true" /> Anmeldung am {detail.panelName}</h2>
      <p className="mt-1 text-sm text-slate-600">Benutzername <code className="font-mono">{site.panelUsername}</code>. Legen Sie hier ein Passwort fest, um sich über die Schaltfläche „{detail.panelName}“ direkt im Panel anzumelden.</p>
      <div className="mt-4 sm:max-w-md">
        <HostingPasswordForm label="Neues Panel-Passwort" submitLabel="Panel-Passwort festlegen" successFallback="Das Panel-Passwort wurde geändert."
          onSubmit={(input) => setPassword.mutateAsync(input)} />
      </div>
    </Card>
  );
}

function FtpPasswordSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const setPassword = useSetFtpPassword(detail.id);
  return (
    <Card className="p-6" role="region" aria-labelledby="ftppw-heading">
      <h2 id="ftppw-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><FolderOpen className="size-5" aria-hidden="true" /> FTP-Passwort</h2>
      <p className="mt-1 text-sm text-slate-600">Für den FTP-Benutzer <code className="font-mono">{site.ftp.username}</code>.</p>
      <div className="mt-4 sm:max-w-md">
        <HostingPasswordForm label="Neues FTP-Passwort" submitLabel="FTP-Passwort ändern" successFallback="Das FTP-Passwort wurde geändert."
          onSubmit={(input) => setPassword.mutateAsync(input)} />
      </div>
    </Card>
  );
}

function MysqlPasswordSection({ detail }: { detail: HostingDetail }) {
  const databases = useHostingDatabases(detail.id);
  const setPassword = useSetDatabaseUserPassword(detail.id);
  const users = databases.data?.users ?? [];
  const [chosen, setChosen] = useState('');
  const userId = users.some((u) => u.id === chosen) ? chosen : users[0]?.id ?? '';
  const user = users.find((u) => u.id === userId);
  return (
    <Card className="p-6" role="region" aria-labelledby="mysqlpw-heading">
      <h2 id="mysqlpw-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Database className="size-5" aria-hidden="true" /> MySQL-Passwort</h2>
      <p className="mt-1 text-sm text-slate-600">
        Auf Shared Hosting gibt es kein MySQL-Root-Konto: Jede Datenbank hat ihren eigenen Benutzer. Hier ändern Sie das Passwort eines dieser Benutzer.
      </p>
      <div className="mt-4 space-y-4 sm:max-w-md">
        <ListState query={databases} isEmpty={users.length === 0} loadingLabel="Datenbankbenutzer werden geladen …" errorText="Die Datenbankbenutzer konnten nicht geladen werden."
          empty="Noch keine Datenbankbenutzer. Legen Sie im Tab „Datenbanken“ eine Datenbank an; ihr Benutzer erscheint dann hier.">
          <SelectField label="Datenbankbenutzer" value={userId} onChange={(e) => setChosen(e.target.value)}>
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </SelectField>
          {user && (
            <HostingPasswordForm key={user.id} label={`Neues Passwort für ${user.name}`} submitLabel="MySQL-Passwort ändern" successFallback={`Das Passwort von ${user.name} wurde geändert.`}
              onSubmit={(input) => setPassword.mutateAsync({ userId: user.id, input })} />
          )}
        </ListState>
      </div>
    </Card>
  );
}
