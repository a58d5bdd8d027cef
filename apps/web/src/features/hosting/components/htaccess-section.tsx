import { useState } from 'react';
import { FileCode2 } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Alert } from '../../../components/ui/card.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import type { HostingSite } from './format.ts';
import { ftpPathOf, Info, Section } from './website-section.tsx';

/**
 * Apache (spec: virtual-host selector and .htaccess editor). The panel has no file API (decision 022),
 * so there is no editor: for the chosen virtual host the block says exactly where its .htaccess lives
 * and how to reach it by FTP.
 */
export function HtaccessSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const [chosenId, setChosenId] = useState(site.domains[0]?.id ?? '');
  const host = site.domains.find((d) => d.id === chosenId) ?? site.domains[0];
  const primary = site.domains.find((d) => d.type === 'primary');
  const ftpFolder = host ? ftpPathOf(host.directory, site.ftp.directory) : null;
  return (
    <Section id="htaccess-heading" title="Apache und .htaccess" icon={<FileCode2 className="size-5" aria-hidden="true" />}>
      <div className="mt-3 space-y-4 text-sm text-slate-700">
        <p>
          Ihre Website läuft auf Apache. Weiterleitungen, Zugriffsschutz und Caching-Regeln legen Sie in der Datei <code className="font-mono">.htaccess</code> fest.
        </p>
        <SelectField label="Virtueller Host" className="max-w-md" value={host?.id ?? ''} onChange={(e) => setChosenId(e.target.value)}>
          {site.domains.map((d) => <option key={d.id} value={d.id}>{d.domain} ({d.type === 'primary' ? 'Hauptdomain' : 'Zusatzdomain'})</option>)}
        </SelectField>
        {host && (
          <div aria-live="polite">
            <dl className="grid gap-x-8 gap-y-3 sm:grid-cols-2">
              <Info label="Datei auf dem Server" value={<code className="break-all font-mono">{host.directory}/.htaccess</code>} />
              {ftpFolder && <Info label="Per FTP" value={<code className="break-all font-mono">{ftpFolder === '/' ? '' : ftpFolder}/.htaccess</code>} />}
              <Info label="FTP-Host" value={<code className="break-all font-mono">{site.ftp.host}</code>} />
              <Info label="FTP-Benutzer" value={<code className="break-all font-mono">{site.ftp.username}</code>} />
            </dl>
            {host.type === 'addon' && primary && (
              <p className="mt-3">
                Der Ordner von {host.domain} liegt im öffentlichen Ordner der Hauptdomain: Regeln aus <code className="break-all font-mono">{primary.directory}/.htaccess</code> gelten deshalb in der Regel auch hier, soweit diese Datei sie nicht ersetzt.
              </p>
            )}
          </div>
        )}
        <Alert tone="info">
          {detail.panelName} hat keine Schnittstelle für Dateien, deshalb gibt es hier keinen Editor. Verbinden Sie sich mit den FTP-Zugangsdaten
          unten (Port {site.ftp.port}, möglichst FTPS), öffnen Sie den angezeigten Ordner und bearbeiten oder erstellen Sie dort die Datei <code className="font-mono">.htaccess</code>.
          Apache liest sie bei jedem Aufruf neu, ein Neustart ist nicht nötig.
        </Alert>
      </div>
    </Section>
  );
}
