import type { ReactNode } from 'react';
import { ChevronDown, Laptop, Link2, Monitor, Smartphone, Terminal, Command } from 'lucide-react';
import type { StorageDetail } from '@hp/contract';
import { Card } from '../../../components/ui/card.tsx';

const Code = ({ children }: { children: ReactNode }) => <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.8125rem] text-slate-900">{children}</code>;
const external = { target: '_blank', rel: 'noopener noreferrer', className: 'font-medium text-brand-700 underline' } as const;

/** The WebDAV address as GNOME Files (davs://) and KDE Dolphin (webdavs://) expect it. */
export const davAddress = (webdavUrl: string, scheme: 'davs' | 'webdavs') => webdavUrl.replace(/^https:\/\//, `${scheme}://`).replace(/^http:\/\//, scheme === 'davs' ? 'dav://' : 'webdav://');

/**
 * How to reach the account from each kind of device: Nextcloud's desktop and mobile apps, the network
 * drive over WebDAV on Windows, macOS and Linux, and share links from the web interface.
 */
export function StorageHowTos({ detail }: { detail: StorageDetail }) {
  const user = detail.accountName;
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="storage-howto-heading">
        <h2 id="storage-howto-heading" className="text-lg font-semibold text-slate-900">So greifen Sie auf Ihre Dateien zu</h2>
        <p className="mt-1 text-sm text-slate-600">Sie melden sich überall mit dem Benutzernamen <Code>{user}</Code> und Ihrem Passwort an.</p>
        <div className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
          <HowTo icon={Laptop} title="Desktop-App: Ordner synchronisieren (Windows, macOS, Linux)">
            <ol className="list-decimal space-y-1.5 pl-5">
              <li>Laden Sie den Nextcloud-Desktop-Client von <a href="https://nextcloud.com/install/" {...external}>nextcloud.com/install</a> herunter und installieren Sie ihn.</li>
              <li>Wählen Sie „Anmelden“ und geben Sie als Serveradresse <Code>{detail.serverUrl}</Code> ein.</li>
              <li>Der Browser öffnet sich: Melden Sie sich mit Benutzername und Passwort an und erlauben Sie den Zugriff.</li>
              <li>Wählen Sie den lokalen Ordner, der synchronisiert werden soll. Änderungen gleicht die App danach automatisch ab.</li>
            </ol>
          </HowTo>
          <HowTo icon={Smartphone} title="Mobile Apps (iOS und Android)">
            <ol className="list-decimal space-y-1.5 pl-5">
              <li>Installieren Sie die App „Nextcloud“ aus dem App Store (iPhone, iPad) oder aus Google Play bzw. F-Droid (Android).</li>
              <li>Tippen Sie auf „Anmelden“, geben Sie die Serveradresse <Code>{detail.serverUrl}</Code> ein und melden Sie sich an.</li>
              <li>Fotos und Videos sichern Sie auf Wunsch mit dem automatischen Hochladen, das Sie in den Einstellungen der App einschalten.</li>
            </ol>
          </HowTo>
          <HowTo icon={Monitor} title="Windows: als Netzlaufwerk einbinden">
            <ol className="list-decimal space-y-1.5 pl-5">
              <li>Öffnen Sie den Explorer, klicken Sie mit der rechten Maustaste auf „Dieser PC“ und wählen Sie „Netzlaufwerk verbinden …“.</li>
              <li>Wählen Sie einen Laufwerksbuchstaben und geben Sie als Ordner die WebDAV-Adresse <Code>{detail.webdavUrl}</Code> ein.</li>
              <li>Setzen Sie „Verbindung mit anderen Anmeldeinformationen herstellen“, klicken Sie auf „Fertig stellen“ und melden Sie sich mit Benutzername und Passwort an.</li>
            </ol>
            <p className="mt-2">Windows überträgt über ein Netzlaufwerk standardmäßig nur Dateien bis 50 MB. Für größere Dateien nutzen Sie die Desktop-App oder den Browser.</p>
          </HowTo>
          <HowTo icon={Command} title="macOS: mit dem Finder verbinden">
            <ol className="list-decimal space-y-1.5 pl-5">
              <li>Wählen Sie im Finder das Menü „Gehe zu“ → „Mit Server verbinden …“ (⌘K).</li>
              <li>Geben Sie als Serveradresse <Code>{detail.webdavUrl}</Code> ein und klicken Sie auf „Verbinden“.</li>
              <li>Melden Sie sich als „Registrierter Benutzer“ mit Benutzername und Passwort an. Der Speicher erscheint im Finder unter „Orte“.</li>
            </ol>
          </HowTo>
          <HowTo icon={Terminal} title="Linux: Dateimanager oder davfs2">
            <ul className="list-disc space-y-1.5 pl-5">
              <li>GNOME (Dateien): „Andere Orte“ → „Mit Server verbinden“, Adresse <Code>{davAddress(detail.webdavUrl, 'davs')}</Code>.</li>
              <li>KDE (Dolphin): in die Adresszeile <Code>{davAddress(detail.webdavUrl, 'webdavs')}</Code> eingeben.</li>
              <li>Dauerhaft einbinden mit davfs2: <Code>{`sudo mount -t davfs ${detail.webdavUrl} /mnt/cloud`}</Code> (das Verzeichnis <Code>/mnt/cloud</Code> muss vorhanden sein).</li>
            </ul>
          </HowTo>
          <HowTo icon={Link2} title="Dateien mit Freigabelinks teilen">
            <p>
              Freigabelinks erstellen Sie im <a href={detail.webUrl} {...external}>Web-Interface<span className="sr-only"> (neues Fenster)</span></a>: Klicken Sie bei einer Datei oder einem
              Ordner auf das Teilen-Symbol und legen Sie unter „Link teilen“ einen Link an. Auf Wunsch schützen Sie ihn mit einem Passwort oder einem Ablaufdatum.
              Wer den Link erhält, braucht kein eigenes Konto.
            </p>
          </HowTo>
        </div>
        <p className="mt-3 text-sm text-slate-600">
          Haben Sie in Nextcloud die Zwei-Faktor-Anmeldung eingeschaltet, verwenden Sie für das Netzlaufwerk ein App-Passwort: Sie erstellen es im Web-Interface unter
          „Persönliche Einstellungen“ → „Sicherheit“.
        </p>
      </section>
    </Card>
  );
}

function HowTo({ icon: Icon, title, children }: { icon: typeof Laptop; title: string; children: ReactNode }) {
  return (
    <details className="group">
      <summary className="flex cursor-pointer list-none items-center gap-3 px-4 py-3 font-medium text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
        <Icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <span className="min-w-0 flex-1">{title}</span>
        <ChevronDown className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-180" aria-hidden="true" />
      </summary>
      <div className="px-4 pb-4 pl-12 text-sm leading-6 text-slate-700">{children}</div>
    </details>
  );
}
