import { useState } from 'react';
import { FolderOpen, Globe, KeyRound } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert } from '../../../../components/ui/card.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { useSetFtpPassword } from '../../api/ftp.ts';
import { DomainsSection } from '../domains-section.tsx';
import type { HostingSite } from '../format.ts';
import { HtaccessSection } from '../htaccess-section.tsx';
import { HostingPasswordForm } from '../password-form.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';
import { InstalledApp } from '../installed-app.tsx';
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

function FtpSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const [open, setOpen] = useState(false);
  const setPassword = useSetFtpPassword(detail.id);
  return (
    <Section id="ftp-heading" title="Dateien (FTP)" icon={<FolderOpen className="size-5" aria-hidden="true" />}
      actions={detail.access === 'owner' ? <Button size="sm" variant="outline" onClick={() => setOpen(true)}><KeyRound className="size-4" aria-hidden="true" /> FTP-Passwort ändern</Button> : undefined}>
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
