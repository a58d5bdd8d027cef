import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { FileCode2, FolderOpen, Globe, KeyRound, Lock, Plus, Trash2 } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { useDeleteDomain, useRequestSsl, type HostingDomain } from '../../api/domains.ts';
import { useSetFtpPassword } from '../../api/ftp.ts';
import { AddDomainDialog } from '../add-domain-dialog.tsx';
import { errorText, type HostingSite } from '../format.ts';
import { InstalledApp } from '../installed-app.tsx';
import { HostingPasswordForm } from '../password-form.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';
import { SslBadge } from '../status-badge.tsx';
import { WebsiteTypeDialog } from '../website-type-dialog.tsx';

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

function Section({ id, title, icon, actions, children }: { id: string; title: string; icon: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-6" role="region" aria-labelledby={id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">{icon}{title}</h2>
        {actions}
      </div>
      {children}
    </Card>
  );
}

function Info({ label, value }: { label: string; value: ReactNode }) {
  return <div className="min-w-0"><dt className="text-slate-600">{label}</dt><dd className="break-words font-medium text-slate-900">{value}</dd></div>;
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

function DomainsSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const [adding, setAdding] = useState(false);
  const remove = useDeleteDomain(detail.id);
  const ssl = useRequestSsl(detail.id);
  const [sslError, setSslError] = useState<{ id: string; message: string } | null>(null);
  const used = site.domains.length;
  const full = used >= detail.limits.domains;
  const requestSsl = (d: HostingDomain) => {
    setSslError(null);
    ssl.mutate(d.id, {
      onSuccess: (res) => toast.success(res?.message ?? `Das Zertifikat für ${d.domain} wird ausgestellt. Das dauert einige Minuten.`),
      onError: (err) => setSslError({ id: d.id, message: errorText(err, 'Das Zertifikat konnte nicht beantragt werden.') }),
    });
  };
  return (
    <Section id="domains-heading" title="Domains" icon={<Globe className="size-5" aria-hidden="true" />}
      actions={<Button size="sm" onClick={() => setAdding(true)} disabled={full}><Plus className="size-4" aria-hidden="true" /> Domain hinzufügen</Button>}>
      <p className="mt-1 text-sm text-slate-600">{used} von {detail.limits.domains} Domains genutzt{full ? ' – Ihr Tarif enthält keine weiteren Domains.' : '.'}</p>
      <div className="mt-4">
        <DataTable caption="Domains des Pakets" rows={site.domains} rowKey={(d) => d.id} columns={[
          { header: 'Domain', rowHeader: true, className: 'whitespace-nowrap', cell: (d) => d.domain },
          { header: 'Typ', cell: (d) => (d.type === 'primary' ? 'Hauptdomain' : 'Zusatzdomain') },
          {
            header: 'SSL',
            cell: (d) => (
              <div className="flex flex-col items-end gap-1 @3xl:items-start" aria-live="polite">
                <SslBadge ssl={d.ssl} />
                {sslError?.id === d.id && <span role="alert" className="text-xs font-medium text-red-700">{sslError.message}</span>}
              </div>
            ),
          },
          { header: 'Verzeichnis', cell: (d) => <code className="font-mono text-xs">{d.directory}</code> },
          {
            header: 'Aktionen', actions: true,
            cell: (d) => (
              <div className="flex flex-wrap justify-end gap-1">
                {(d.ssl === 'none' || d.ssl === 'failed') && (
                  <Button size="sm" variant="outline" onClick={() => requestSsl(d)} loading={ssl.isPending && ssl.variables === d.id} aria-label={`SSL für ${d.domain} aktivieren`}>
                    <Lock className="size-4" aria-hidden="true" /> SSL aktivieren
                  </Button>
                )}
                {d.type === 'addon' && (
                  <ConfirmDialog
                    trigger={<Button size="sm" variant="ghost" aria-label={`Domain ${d.domain} entfernen`}><Trash2 className="size-4 text-red-700" aria-hidden="true" /> Entfernen</Button>}
                    title="Domain entfernen?"
                    description={`${d.domain} wird aus Ihrem Paket entfernt und ist danach nicht mehr erreichbar. Der Ordner ${d.directory} und seine Dateien bleiben erhalten.`}
                    confirmLabel="Entfernen"
                    onConfirm={() => remove.mutateAsync(d.id).then(
                      (res) => toast.success(res?.message ?? `Die Domain ${d.domain} wurde entfernt.`),
                      (err: unknown) => { toast.error(errorText(err, 'Die Domain konnte nicht entfernt werden.'), { duration: 7000 }); throw err; },
                    )}
                  />
                )}
              </div>
            ),
          },
        ]} />
      </div>
      {adding && <AddDomainDialog detail={detail} used={used} onClose={() => setAdding(false)} />}
    </Section>
  );
}

function HtaccessSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  return (
    <Section id="htaccess-heading" title="Apache und .htaccess" icon={<FileCode2 className="size-5" aria-hidden="true" />}>
      <div className="mt-3 space-y-3 text-sm text-slate-700">
        <p>
          Ihre Website läuft auf Apache. Weiterleitungen, Zugriffsschutz und Caching-Regeln legen Sie in der Datei <code className="font-mono">.htaccess</code> fest.
        </p>
        {!detail.capabilities.htaccess && (
          <Alert tone="info">
            {detail.panelName} hat keine Schnittstelle für Dateien, deshalb gibt es hier keinen Editor. Bearbeiten Sie die
            Datei <code className="font-mono">.htaccess</code> per FTP im Ordner <code className="font-mono">web</code> Ihrer Website
            (Zugangsdaten unten); Apache liest sie bei jedem Aufruf neu, ein Neustart ist nicht nötig.
          </Alert>
        )}
        {detail.capabilities.htaccess && (
          <p>Sie bearbeiten die Datei per FTP im Ordner <code className="font-mono">web</code> Ihrer Website (<code className="break-all font-mono">{site.ftp.directory}</code>).</p>
        )}
      </div>
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
