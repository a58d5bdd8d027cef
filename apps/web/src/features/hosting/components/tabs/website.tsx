import { useState } from 'react';
import { toast } from 'sonner';
import { ExternalLink, FolderOpen, Globe, KeyRound, RefreshCw } from 'lucide-react';
import type { HostingApp, HostingDetail } from '@hp/contract';
import { Badge } from '../../../../components/ui/badge.tsx';
import { Button, buttonClass } from '../../../../components/ui/button.tsx';
import { Alert } from '../../../../components/ui/card.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { useUpdateApp } from '../../api/hosting.ts';
import { useSetFtpPassword } from '../../api/ftp.ts';
import { DomainsSection } from '../domains-section.tsx';
import { APP_NAME, appAdminUrl, countWithUpdates, errorText, type HostingSite } from '../format.ts';
import { HtaccessSection } from '../htaccess-section.tsx';
import { HostingPasswordForm } from '../password-form.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';
import { AppStateBadge } from '../status-badge.tsx';
import { WebsiteTypeDialog } from '../website-type-dialog.tsx';
import { Info, Section } from '../website-section.tsx';

/** Website (spec): the installed application, domains with SSL, .htaccess (honestly: via FTP) and FTP access. */
export function WebsiteTab({ detail }: { detail: HostingDetail }) {
  const site = detail.site;
  if (!site) return <SiteUnavailable detail={detail} />;
  return (
    <div className="space-y-6">
      <AppSection detail={detail} site={site} />
      <DomainsSection detail={detail} site={site} />
      <HtaccessSection detail={detail} site={site} />
      <FtpSection detail={detail} site={site} />
    </div>
  );
}

function AppSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const app = site.app;
  const [typeOpen, setTypeOpen] = useState(false);
  if (!app) {
    return (
      <Section id="app-heading" title="Anwendung" icon={<Globe className="size-5" aria-hidden="true" />}>
        <p className="mt-3 text-sm text-slate-700">Auf diesem Paket ist keine Anwendung (WordPress oder Joomla) über das Portal installiert.</p>
        {detail.capabilities.apps ? (
          <Button className="mt-4" size="sm" onClick={() => setTypeOpen(true)}>WordPress oder Joomla installieren</Button>
        ) : (
          <Alert tone="info" className="mt-4">
            {detail.panelName} bietet keinen Ein-Klick-Installer an. Sie können WordPress oder Joomla selbst installieren: Laden Sie die
            Dateien per FTP in den Ordner <code className="font-mono">web</code> Ihrer Website hoch und legen Sie unter „Datenbanken“ eine Datenbank an.
          </Alert>
        )}
        {typeOpen && <WebsiteTypeDialog detail={detail} open onOpenChange={(o) => !o && setTypeOpen(false)} />}
      </Section>
    );
  }
  return <InstalledApp detail={detail} site={site} app={app} />;
}

function InstalledApp({ detail, site, app }: { detail: HostingDetail; site: HostingSite; app: HostingApp }) {
  const update = useUpdateApp(detail.id);
  const name = APP_NAME[app.kind];
  const upToDate = app.version === app.latestVersion;
  const busy = app.state === 'installing' || app.state === 'updating';
  const primary = site.domains.find((d) => d.type === 'primary');
  const pluginUpdates = app.plugins.filter((p) => p.update !== 'none').length;
  const themeUpdates = app.themes.filter((t) => t.update !== 'none').length;
  const runUpdate = () => update.mutate(undefined, {
    onSuccess: (res) => toast.success(res.message ?? `${name} wird aktualisiert.`),
  });
  return (
    <Section id="app-heading" title={name} icon={<Globe className="size-5" aria-hidden="true" />}
      actions={
        <div className="flex flex-wrap gap-2">
          <a href={appAdminUrl(detail.primaryDomain, app.kind)} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
            <ExternalLink className="size-4" aria-hidden="true" /> Admin öffnen<span className="sr-only"> (neues Fenster)</span>
          </a>
          <Button size="sm" onClick={runUpdate} loading={update.isPending} disabled={upToDate || busy} aria-describedby="app-update-note">
            <RefreshCw className="size-4" aria-hidden="true" /> {name} aktualisieren
          </Button>
        </div>
      }>
      <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
        <Info label="Version und Status" value={<span className="flex flex-wrap items-center gap-2">{app.version} <span aria-live="polite"><AppStateBadge state={app.state} /></span></span>} />
        <Info label="Installationsverzeichnis" value={<code className="font-mono text-sm">{primary?.directory ?? site.ftp.directory}</code>} />
        <Info label="Plugins" value={countWithUpdates(app.plugins.length, pluginUpdates)} />
        <Info label="Themes" value={countWithUpdates(app.themes.length, themeUpdates)} />
      </dl>
      <p id="app-update-note" className="mt-3 text-sm text-slate-600" aria-live="polite">
        {busy ? `${name} wird gerade ${app.state === 'installing' ? 'installiert' : 'aktualisiert'}; diese Seite aktualisiert sich selbst.`
          : upToDate ? `${name} ist auf dem neuesten Stand (${app.version}); es gibt nichts zu aktualisieren.`
            : `Version ${app.latestVersion} ist verfügbar. Legen Sie vor dem Update am besten ein Backup an.`}
      </p>
      {app.state === 'failed' && <Alert tone="error" className="mt-3">Der letzte Vorgang an {name} ist fehlgeschlagen. Bitte versuchen Sie es erneut oder wenden Sie sich an den Support.</Alert>}
      {update.isError && <Alert tone="error" className="mt-3">{errorText(update.error, `${name} konnte nicht aktualisiert werden.`)}</Alert>}

      {app.plugins.length > 0 && (
        <div className="mt-6">
          <h3 className="mb-2 font-semibold text-slate-900">Plugins</h3>
          <DataTable caption={`Plugins von ${name}`} rows={app.plugins} rowKey={(p) => p.name} columns={[
            { header: 'Name', rowHeader: true, cell: (p) => p.name },
            { header: 'Version', cell: (p) => p.version },
            { header: 'Aktiv', cell: (p) => (p.active ? 'Aktiviert' : 'Deaktiviert') },
            { header: 'Status', cell: (p) => (p.update === 'critical' ? <Badge tone="danger">Kritisches Update</Badge> : p.update === 'available' ? <Badge tone="warning">Update verfügbar</Badge> : <Badge tone="success">Aktuell</Badge>) },
          ]} />
        </div>
      )}
      {app.themes.length > 0 && (
        <div className="mt-6">
          <h3 className="mb-2 font-semibold text-slate-900">Themes</h3>
          <DataTable caption={`Themes von ${name}`} rows={app.themes} rowKey={(t) => t.name} columns={[
            { header: 'Name', rowHeader: true, cell: (t) => t.name },
            { header: 'Version', cell: (t) => t.version },
            { header: 'Aktiv', cell: (t) => (t.active ? 'Aktives Theme' : '–') },
            { header: 'Status', cell: (t) => (t.update === 'available' ? <Badge tone="warning">Update verfügbar</Badge> : <Badge tone="success">Aktuell</Badge>) },
          ]} />
        </div>
      )}
      {(app.plugins.length > 0 || app.themes.length > 0) && (
        <p className="mt-3 text-sm text-slate-600">Plugins und Themes aktualisieren, aktivieren oder deaktivieren Sie im Admin-Bereich von {name}.</p>
      )}
    </Section>
  );
}

function FtpSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const [open, setOpen] = useState(false);
  const setPassword = useSetFtpPassword(detail.id);
  return (
    <Section id="ftp-heading" title="Dateien (FTP)" icon={<FolderOpen className="size-5" aria-hidden="true" />}
      actions={<Button size="sm" variant="outline" onClick={() => setOpen(true)}><KeyRound className="size-4" aria-hidden="true" /> FTP-Passwort ändern</Button>}>
      <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
        <Info label="Host" value={<code className="break-all font-mono">{site.ftp.host}</code>} />
        <Info label="Benutzer" value={<code className="break-all font-mono">{site.ftp.username}</code>} />
        <Info label="Port" value={site.ftp.port} />
        <Info label="Verzeichnis" value={<code className="break-all font-mono">{site.ftp.directory}</code>} />
      </dl>
      <p className="mt-3 text-sm text-slate-600">Verbinden Sie sich mit einem FTP-Programm (z. B. FileZilla) und verwenden Sie möglichst FTPS (explizites TLS).</p>
      <Modal open={open} onOpenChange={setOpen} title="FTP-Passwort ändern" description={`Neues Passwort für den FTP-Benutzer ${site.ftp.username}.`}>
        <HostingPasswordForm label="Neues FTP-Passwort" submitLabel="Passwort ändern" successFallback="Das FTP-Passwort wurde geändert."
          onSubmit={(input) => setPassword.mutateAsync(input)} onDone={() => setOpen(false)} onCancel={() => setOpen(false)} />
      </Modal>
    </Section>
  );
}
