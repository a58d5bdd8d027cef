import { PROVIDER_DNS_LABEL, PROVIDER_NAMESERVERS } from '@hp/contract/domain-tlds';

/**
 * The customer help as data: the FAQ (its own page at /faq) and the how-tos of the documentation
 * (/dokumentation). Article ids are anchors that links and bookmarks rely on: never rename one.
 */

const company = __COMPANY__;

export interface FaqEntry { id: string; question: string; answer: string }

/** The FAQ page's questions; the documentation lists them too (anchor `faq-<id>`). */
export const faqSections: readonly { id: string; title: string; entries: readonly FaqEntry[] }[] = [
  {
    id: 'allgemein',
    title: 'Allgemeine Fragen',
    entries: [
      {
        id: 'anbieter',
        question: `Was ist ${company.name}?`,
        answer: `${company.name} ist ein Hosting-Anbieter für Unternehmen und Privatkunden. Wir bieten Root Server, Webhosting, Cloud-Speicher, Virtual Data Center und Domains an – mit NVMe-Speicher, DDoS-Schutz und 24/7 Ticket-Support.`,
      },
      {
        id: 'kontakt',
        question: 'Wie kann ich Kontakt mit Ihnen aufnehmen?',
        answer: `Sie erreichen uns per E-Mail an ${company.email} oder über das Ticket-System in Ihrem Kundenbereich. Anliegen zu bestehenden Servern oder Verträgen bearbeiten wir am schnellsten über ein Ticket.`,
      },
      {
        id: 'zahlung',
        question: 'Welche Zahlungsmethoden werden akzeptiert?',
        answer: 'Im Shop bezahlen Sie per Kreditkarte. Firmenkunden können auf Anfrage per Rechnung und Überweisung zahlen. Jede Rechnung erhalten Sie als PDF und als E-Rechnung (XRechnung).',
      },
      {
        id: 'servicezeiten',
        question: 'Wann ist der Support erreichbar?',
        answer: 'Unsere Servicezeiten sind Montag bis Sonntag von 8 bis 23 Uhr (MEZ). Tickets können Sie rund um die Uhr erstellen.',
      },
      {
        id: 'hilfe',
        question: 'Wie erhalte ich Hilfe bei Problemen?',
        answer: 'Erstellen Sie in Ihrem Kundenbereich ein Ticket und beschreiben Sie Ihr Anliegen möglichst genau – zum Beispiel den betroffenen Server, die Fehlermeldung und was Sie bereits versucht haben. Unser Support-Team meldet sich dann schnellstmöglich bei Ihnen.',
      },
    ],
  },
  {
    id: 'server',
    title: 'Server & Hosting',
    entries: [
      {
        id: 'root-server',
        question: 'Was ist ein Root Server?',
        answer: 'Ein Root Server ist bei uns eine virtuelle Maschine, die auf einem physischen Host läuft. Sie erhalten fest zugewiesene Ressourcen – CPU-Kerne, Arbeitsspeicher und NVMe-Speicher – und verwalten das System so, als wäre es Ihr eigener Server.',
      },
      {
        id: 'betriebssysteme',
        question: 'Welche Betriebssysteme stehen zur Auswahl?',
        answer: 'Sie können zwischen Ubuntu Server, Debian, Windows Server 2025 und Windows Server 2022 wählen. Für Windows Server fällt ein monatlicher Lizenzaufschlag an.',
      },
      {
        id: 'root-zugriff',
        question: 'Habe ich vollen Root-Zugriff?',
        answer: 'Ja, bei Root Servern haben Sie vollen Root- bzw. Administratorzugriff. Beim Webhosting ist der Zugriff eingeschränkt, da sich dort mehrere Kunden eine von uns verwaltete Umgebung teilen.',
      },
      {
        id: 'kuendigung',
        question: 'Wie kann ich meinen Server kündigen?',
        answer: 'Eine Kündigung ist nicht nötig: Server werden für die gewählte Laufzeit im Voraus bezahlt, es gibt kein Abonnement. Wenn Sie Ihren Server nicht verlängern, läuft er zum Ende der Laufzeit automatisch aus.',
      },
      {
        id: 'zugriff-teilen',
        question: 'Kann ich den Zugriff auf meinen Server mit anderen teilen?',
        answer: 'Ja. Im Server-Dashboard können Sie anderen Kontoinhabern Zugriff auf Ihren Server gewähren, etwa Kolleginnen und Kollegen oder Ihrer Agentur.',
      },
    ],
  },
];

export interface HelpArticle {
  /** Stable anchor on /dokumentation. */
  id: string;
  title: string;
  /** Running text; one string per paragraph. */
  paragraphs: readonly string[];
  /** Numbered steps, where the article is a procedure. */
  steps?: readonly string[];
}

export interface HelpTopic { id: string; title: string; articles: readonly HelpArticle[] }

const [ns1, ns2] = PROVIDER_NAMESERVERS;

/** How-tos for the portal, in the order a new customer needs them. */
export const guideTopics: readonly HelpTopic[] = [
  {
    id: 'erste-schritte',
    title: 'Erste Schritte mit Ihrem Server',
    articles: [
      {
        id: 'server-bestellen',
        title: 'Einen Root Server bestellen',
        paragraphs: ['Root Server stellen Sie im Konfigurator selbst zusammen: Betriebssystem, CPU-Kerne, Arbeitsspeicher, NVMe-Speicher und Laufzeit. Der Preis steht vor der Zahlung fest; bei längerer Laufzeit gibt es Rabatt.'],
        steps: [
          'Melden Sie sich an oder erstellen Sie ein Kundenkonto.',
          'Öffnen Sie „Root Server“ und wählen Sie „Root Server konfigurieren“.',
          'Wählen Sie Betriebssystem, Ressourcen und Laufzeit und bezahlen Sie die Bestellung.',
          'Nach der Zahlung wird der Server eingerichtet. Unter „Meine Produkte“ sehen Sie, wann er bereit ist; die Rechnung finden Sie unter „Rechnungen“.',
        ],
      },
      {
        id: 'server-zugang',
        title: 'Zum ersten Mal auf den Server zugreifen',
        paragraphs: [
          'Öffnen Sie den Server unter „Meine Produkte“. Die Übersicht zeigt seine IP-Adresse, das Betriebssystem und die Auslastung.',
          'Unter „Einstellungen“ legen Sie ein Root-Passwort fest (bei Windows Server das Administrator-Passwort) oder hinterlegen SSH-Schlüssel. Das Passwort wird direkt auf dem Server gesetzt und bei uns nicht gespeichert.',
          'Danach verbinden Sie sich per SSH, zum Beispiel mit „ssh root@<IP-Adresse>“, oder über Remotedesktop bei Windows Server. Ohne Netzwerkzugang hilft die Konsole im Browser weiter.',
        ],
      },
      {
        id: 'server-verwalten',
        title: 'Server starten, stoppen und neu installieren',
        paragraphs: [
          'Auf der Serverseite starten, stoppen und starten Sie den Server neu. Unter „Netzwerk“ schalten Sie die Firewall ein und legen Regeln für einzelne Ports an; unter „Installation“ richten Sie Software ein.',
          'Eine Neuinstallation unter „Einstellungen“ löscht alle Daten auf dem Server. Erstellen Sie vorher ein Backup, wenn Sie Daten behalten möchten.',
        ],
      },
      {
        id: 'server-teilen',
        title: 'Den Zugriff mit anderen teilen',
        paragraphs: ['Unter „Einstellungen“ geben Sie anderen Kundenkonten Zugriff auf Ihren Server, etwa Ihrer Agentur. Sie können den Zugriff jederzeit wieder entziehen.'],
      },
    ],
  },
  {
    id: 'ssh',
    title: 'SSH-Schlüssel',
    articles: [
      {
        id: 'ssh-schluessel-erstellen',
        title: 'Einen SSH-Schlüssel erstellen',
        paragraphs: ['Ein SSH-Schlüssel ist sicherer als ein Passwort: Der private Teil bleibt auf Ihrem Rechner, nur der öffentliche Teil kommt auf den Server.'],
        steps: [
          'Öffnen Sie ein Terminal (unter Windows die PowerShell).',
          'Geben Sie „ssh-keygen -t ed25519“ ein und bestätigen Sie den vorgeschlagenen Speicherort. Eine Passphrase schützt den Schlüssel zusätzlich.',
          'Der öffentliche Schlüssel liegt danach in der Datei „id_ed25519.pub“ im Ordner „.ssh“ Ihres Benutzerverzeichnisses. Nur diesen Inhalt geben Sie weiter.',
        ],
      },
      {
        id: 'ssh-schluessel-hinterlegen',
        title: 'SSH-Schlüssel beim Server hinterlegen',
        paragraphs: [
          'Öffnen Sie Ihren Server, wechseln Sie zu „Einstellungen“ und fügen Sie im Feld „Öffentliche SSH-Schlüssel“ einen Schlüssel pro Zeile ein. Erlaubt sind ssh-ed25519, ssh-rsa und ecdsa-sha2-*, höchstens 20 Schlüssel.',
          'Mit „SSH-Schlüssel speichern“ werden die Schlüssel auf den Server übertragen. Windows Server haben keine SSH-Schlüssel; dort melden Sie sich mit dem Administrator-Passwort an.',
        ],
      },
    ],
  },
  {
    id: 'backups',
    title: 'Backups',
    articles: [
      {
        id: 'server-backup',
        title: 'Backups eines Root Servers',
        paragraphs: [
          'Unter „Backups“ auf der Serverseite sichern Sie den aktuellen Stand Ihres Servers mit „Backup erstellen“. Wie viele Backups Sie behalten können, steht neben der Schaltfläche; ist die Grenze erreicht, löschen Sie zuerst ein älteres Backup.',
          '„Wiederherstellen“ setzt den Server auf den Stand des Backups zurück. Alles, was danach auf dem Server geändert wurde, geht dabei verloren.',
        ],
      },
      {
        id: 'webhosting-backup',
        title: 'Backups eines Webhosting-Pakets',
        paragraphs: [
          'Webhosting-Pakete werden nach einem Zeitplan gesichert. Unter „Backups“ im Paket sehen Sie die vorhandenen Sicherungen und legen in den Backup-Einstellungen fest, wie oft gesichert wird und wie viele Sicherungen erhalten bleiben.',
          'Eine Wiederherstellung spielt das Panel innerhalb weniger Minuten ein; bis dahin ist keine weitere Wiederherstellung möglich.',
        ],
      },
    ],
  },
  {
    id: 'dns',
    title: 'DNS für Webhosting und Domains',
    articles: [
      {
        id: 'domain-nameserver',
        title: 'Nameserver einer Domain ändern',
        paragraphs: [
          `Jede Domain, die Sie bei uns registrieren, nutzt zunächst ${PROVIDER_DNS_LABEL} (${ns1} und ${ns2}). Unter „Meine Produkte“ → Domain → „Nameserver“ können Sie stattdessen zwei bis vier Nameserver Ihres eigenen DNS-Anbieters eintragen.`,
          'Änderungen an den Nameservern werden weltweit innerhalb von bis zu 24 Stunden sichtbar. Einzelne DNS-Einträge (A, MX, TXT) lassen sich im Kundenportal nicht bearbeiten: Brauchen Sie eigene Einträge, tragen Sie die Nameserver eines DNS-Anbieters ein, bei dem Sie Einträge selbst verwalten, und setzen die Einträge dort.',
        ],
      },
      {
        id: 'domain-webhosting',
        title: 'Eine eigene Domain mit dem Webhosting verbinden',
        paragraphs: ['Die kostenlose Subdomain Ihres Pakets funktioniert sofort. Für eine eigene Domain richten Sie deren DNS auf unseren Hosting-Server.'],
        steps: [
          'Fügen Sie die Domain in Ihrem Webhosting-Paket unter „Website“ mit „Domain hinzufügen“ hinzu.',
          'Öffnen Sie bei der Domain „Verwalten“: Dort steht der Name des Hosting-Servers, auf den die Domain zeigen muss.',
          'Setzen Sie bei Ihrem DNS-Anbieter die A- und AAAA-Einträge der Domain und von „www“ auf die IP-Adressen dieses Servers; für „www“ genügt auch ein CNAME-Eintrag auf den Servernamen.',
          'Sobald die Domain auf unseren Server zeigt, stellt Let’s Encrypt das SSL-Zertifikat kostenlos aus. DNS-Änderungen brauchen bis zu einige Stunden.',
        ],
      },
      {
        id: 'domain-umzug',
        title: 'Eine Domain zu einem anderen Anbieter umziehen',
        paragraphs: ['Schalten Sie auf der Domainseite die Transfersperre aus und lassen Sie sich den Auth-Code anzeigen; dafür fragen wir Ihr Passwort erneut ab. Den Auth-Code geben Sie beim neuen Anbieter ein.'],
      },
    ],
  },
  {
    id: 'cloud-speicher',
    title: 'Cloud-Speicher nutzen',
    articles: [
      {
        id: 'cloud-apps',
        title: 'Dateien mit den Nextcloud-Apps synchronisieren',
        paragraphs: [
          'Ihr Cloud-Speicher ist ein Nextcloud-Konto. Die Serveradresse, Ihren Benutzernamen und Anleitungen für jedes Gerät finden Sie unter „Meine Produkte“ → Cloud-Speicher → „Verwalten“.',
          'Die Desktop-App (Windows, macOS, Linux) laden Sie unter nextcloud.com/install herunter; die Mobil-App „Nextcloud“ gibt es im App Store, bei Google Play und bei F-Droid. In der App geben Sie die Serveradresse ein und melden sich im Browser mit Benutzername und Passwort an.',
        ],
      },
      {
        id: 'cloud-netzlaufwerk',
        title: 'Cloud-Speicher als Netzlaufwerk einbinden (WebDAV)',
        paragraphs: [
          'Als Netzlaufwerk erreichen Sie den Speicher über WebDAV; Samba/SMB bieten wir nicht an. Die WebDAV-Adresse steht auf der Seite Ihres Cloud-Speichers.',
          'Windows überträgt über ein Netzlaufwerk standardmäßig nur Dateien bis 50 MB; für größere Dateien nutzen Sie die Desktop-App oder den Browser.',
        ],
        steps: [
          'Windows: Im Explorer mit der rechten Maustaste auf „Dieser PC“ → „Netzlaufwerk verbinden …“, als Ordner die WebDAV-Adresse eingeben, „Verbindung mit anderen Anmeldeinformationen herstellen“ wählen und anmelden.',
          'macOS: Im Finder „Gehe zu“ → „Mit Server verbinden …“ (⌘K), die WebDAV-Adresse eingeben und als registrierter Benutzer anmelden.',
          'Linux: Im Dateimanager die WebDAV-Adresse mit „davs://“ (GNOME) bzw. „webdavs://“ (KDE) statt „https://“ öffnen, oder mit davfs2 einhängen („mount -t davfs“).',
        ],
      },
      {
        id: 'cloud-passwort',
        title: 'Ein neues Passwort für den Cloud-Speicher setzen',
        paragraphs: [
          'Auf der Seite Ihres Cloud-Speichers setzen Sie mit „Neues Passwort setzen“ ein neues, zufällig erzeugtes Passwort. Es wird nur einmal angezeigt und nicht per E-Mail versandt; das bisherige Passwort gilt danach nicht mehr, auch nicht in Apps und Netzlaufwerken.',
        ],
      },
    ],
  },
];

/** The how-tos first, then every FAQ entry as an article (anchor `faq-<id>`, the FAQ page keeps its own ids). */
export const docTopics: readonly HelpTopic[] = [
  ...guideTopics,
  ...faqSections.map((section) => ({
    id: `faq-${section.id}`,
    title: `FAQ: ${section.title}`,
    articles: section.entries.map((entry) => ({ id: `faq-${entry.id}`, title: entry.question, paragraphs: [entry.answer] })),
  })),
];

// Case and accents do not matter: "schlussel" finds "Schlüssel".
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('de');

/** Topics with only the articles that contain every word of the query (title, text or steps). */
export function filterTopics(topics: readonly HelpTopic[], query: string): HelpTopic[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...topics];
  return topics
    .map((topic) => ({
      ...topic,
      articles: topic.articles.filter((article) => {
        const text = fold([topic.title, article.title, ...article.paragraphs, ...(article.steps ?? [])].join(' '));
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((topic) => topic.articles.length > 0);
}
