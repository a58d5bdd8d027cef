import { useState } from 'react';
import { toast } from 'sonner';
import { Globe, Lock, Plus, Settings2, Trash2 } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { DataTable } from '../../../components/ui/table.tsx';
import { useDeleteDomain, useRequestSsl, type HostingDomain } from '../api/domains.ts';
import { AddDomainDialog } from './add-domain-dialog.tsx';
import { errorText, type HostingSite } from './format.ts';
import { SslBadge } from './status-badge.tsx';
import { ftpPathOf, Info, Section } from './website-section.tsx';

const TYPE_LABEL = { primary: 'Hauptdomain', addon: 'Zusatzdomain' } as const;

/** Domains (spec): main and addon domains with type, SSL status, directory and "Verwalten"; "Domain hinzufügen". */
export function DomainsSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const [adding, setAdding] = useState(false);
  const [managing, setManaging] = useState<string | null>(null);
  const used = site.domains.length;
  const full = used >= detail.limits.domains;
  const managed = site.domains.find((d) => d.id === managing);
  return (
    <Section id="domains-heading" title="Domains" icon={<Globe className="size-5" aria-hidden="true" />}
      actions={<Button size="sm" onClick={() => setAdding(true)} disabled={full}><Plus className="size-4" aria-hidden="true" /> Domain hinzufügen</Button>}>
      <p className="mt-1 text-sm text-slate-600">{used} von {detail.limits.domains} Domains genutzt{full ? ' – Ihr Tarif enthält keine weiteren Domains.' : '.'}</p>
      <div className="mt-4">
        <DataTable caption="Domains des Pakets" rows={site.domains} rowKey={(d) => d.id} columns={[
          { header: 'Domain', rowHeader: true, cell: (d) => <span className="break-all">{d.domain}</span> },
          { header: 'Typ', cell: (d) => TYPE_LABEL[d.type] },
          { header: 'SSL', cell: (d) => <span aria-live="polite"><SslBadge ssl={d.ssl} /></span> },
          { header: 'Verzeichnis', cell: (d) => <code className="break-all font-mono text-xs">{d.directory}</code> },
          {
            header: 'Verwalten', actions: true,
            cell: (d) => (
              <Button size="sm" variant="outline" onClick={() => setManaging(d.id)} aria-label={`Domain ${d.domain} verwalten`}>
                <Settings2 className="size-4" aria-hidden="true" /> Verwalten
              </Button>
            ),
          },
        ]} />
      </div>
      {adding && <AddDomainDialog detail={detail} used={used} onClose={() => setAdding(false)} />}
      {managed && <ManageDomainDialog detail={detail} site={site} domain={managed} onClose={() => setManaging(null)} />}
    </Section>
  );
}

/** "Verwalten" of one domain: where it is served from, its certificate, what DNS it needs, removing an addon. */
function ManageDomainDialog({ detail, site, domain: d, onClose }: { detail: HostingDetail; site: HostingSite; domain: HostingDomain; onClose: () => void }) {
  const ssl = useRequestSsl(detail.id);
  const remove = useDeleteDomain(detail.id);
  const ftpFolder = ftpPathOf(d.directory, site.ftp.directory);
  const requestSsl = () => ssl.mutate(d.id, {
    onSuccess: (res) => toast.success(res?.message ?? `Das Zertifikat für ${d.domain} wird ausgestellt. Das dauert einige Minuten.`),
  });
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`Domain ${d.domain}`} description={`${TYPE_LABEL[d.type]} Ihres Pakets ${detail.name}.`}>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <Info label="Typ" value={TYPE_LABEL[d.type]} />
        <Info label="SSL" value={<span aria-live="polite"><SslBadge ssl={d.ssl} /></span>} />
        <Info label="Document Root" value={<code className="break-all font-mono text-xs">{d.documentRoot}</code>} />
        <Info label="Öffentlicher Ordner" value={<code className="break-all font-mono text-xs">{d.directory}</code>} />
        {ftpFolder && <Info label="Ordner per FTP" value={<code className="break-all font-mono text-xs">{ftpFolder}</code>} />}
      </dl>
      <p className="mt-3 text-sm text-slate-600">
        {d.type === 'primary'
          ? 'Dateien im öffentlichen Ordner sind unter der Domain abrufbar; Ordner daneben (z. B. für Protokolle und Backups) nicht.'
          : 'Die Zusatzdomain zeigt auf ihren eigenen Ordner innerhalb des öffentlichen Ordners der Hauptdomain.'}
      </p>

      <h3 className="mt-5 font-semibold text-slate-900">SSL-Zertifikat</h3>
      {d.ssl === 'active' && <p className="mt-1 text-sm text-slate-700">Ein Let's-Encrypt-Zertifikat ist aktiv; es wird automatisch verlängert.</p>}
      {d.ssl === 'pending' && <p className="mt-1 text-sm text-slate-700" aria-live="polite">Das Zertifikat wird gerade ausgestellt. Das dauert meist ein bis zwei Minuten.</p>}
      {(d.ssl === 'none' || d.ssl === 'failed') && (
        <div className="mt-1 space-y-2">
          <p className="text-sm text-slate-700">
            {d.ssl === 'failed'
              ? 'Die Ausstellung ist fehlgeschlagen – meist zeigt die Domain noch nicht auf unseren Server. Prüfen Sie die DNS-Einträge unten und versuchen Sie es erneut.'
              : "Die Domain hat noch kein Zertifikat. Let's Encrypt stellt es kostenlos aus, sobald die Domain auf unseren Server zeigt."}
          </p>
          <Button size="sm" variant="outline" onClick={requestSsl} loading={ssl.isPending}><Lock className="size-4" aria-hidden="true" /> SSL aktivieren</Button>
          {ssl.isError && <Alert tone="error">{errorText(ssl.error, 'Das Zertifikat konnte nicht beantragt werden.')}</Alert>}
        </div>
      )}

      <h3 className="mt-5 font-semibold text-slate-900">DNS</h3>
      {d.dnsManaged ? (
        <p className="mt-1 text-sm text-slate-700">
          Diese Adresse liegt unter unserer Domain; ihr DNS zeigt bereits auf den Hosting-Server <code className="break-all font-mono">{detail.serverHostname}</code>. Sie müssen nichts einrichten.
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-700">
          Richten Sie bei Ihrem Domain-Anbieter die A- und AAAA-Einträge von <code className="break-all font-mono">{d.domain}</code> und <code className="break-all font-mono">www.{d.domain}</code> auf
          die IP-Adressen unseres Hosting-Servers <code className="break-all font-mono">{detail.serverHostname}</code> (für <code className="font-mono">www</code> geht auch ein CNAME-Eintrag auf diesen Namen).
          Änderungen am DNS brauchen bis zu einige Stunden.
        </p>
      )}

      {d.type === 'addon' && (
        <div className="mt-6 border-t border-slate-200 pt-4">
          <ConfirmDialog
            trigger={<Button size="sm" variant="danger"><Trash2 className="size-4" aria-hidden="true" /> Domain entfernen</Button>}
            title="Domain entfernen?"
            description={`${d.domain} wird aus Ihrem Paket entfernt und ist danach nicht mehr erreichbar. Der Ordner ${d.directory} und seine Dateien bleiben erhalten.`}
            confirmLabel="Entfernen"
            onConfirm={() => remove.mutateAsync(d.id).then(
              (res) => { toast.success(res?.message ?? `Die Domain ${d.domain} wurde entfernt.`); onClose(); },
              (err: unknown) => { toast.error(errorText(err, 'Die Domain konnte nicht entfernt werden.'), { duration: 7000 }); throw err; },
            )}
          />
        </div>
      )}
    </Modal>
  );
}
