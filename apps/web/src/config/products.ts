import type { ComponentType, SVGProps } from 'react';
import {
  Archive, Boxes, Cloud, Code, Cpu, Disc3, FolderSync, Globe, HardDrive, Lock, MessageSquare, MousePointerClick, Network,
  RefreshCw, Server, Share2, ShieldCheck, SlidersHorizontal,
} from 'lucide-react';
import { DOMAIN_TLDS, PROVIDER_DNS_LABEL, PROVIDER_NAMESERVERS } from '@hp/contract/domain-tlds';
import { VDC_INCLUDED, VDC_LIMITS, vdcPriceCents } from '@hp/contract';
import { paths } from './paths.ts';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

/** `available`: ordered online today; `soon`: the page exists, ordering leads to the "bald verfügbar" page. */
export type ProductAvailability = 'available' | 'soon';

export interface ProductFeature { title: string; icon: Icon; text: string }

export interface Product {
  id: 'root-server' | 'webhosting' | 'domain' | 'cloud-storage' | 'virtual-data-center';
  name: string;
  /** One sentence for overviews (home page, "bald verfügbar" page). */
  pitch: string;
  /** What the product offers; the product page shows them as cards, overviews as bullets. */
  features: readonly ProductFeature[];
  availability: ProductAvailability;
  icon: Icon;
  /** The product's public page. */
  path: string;
  /** Where ordering starts (configurator, shop, search or the "bald verfügbar" page). */
  orderPath: string;
  /** The button that leads there. */
  orderLabel: string;
}

export type ProductId = Product['id'];

/** The smallest standard pool for one month: the virtual data center's "ab" price. */
export const VDC_FROM_CENTS = vdcPriceCents({ cpu: VDC_LIMITS.cpu.min, ram: VDC_LIMITS.ram.min, storage: VDC_LIMITS.storage.min, ipv4: VDC_LIMITS.ipv4.min, months: 1 });

export const availabilityLabels: Record<ProductAvailability, string> = {
  available: 'Jetzt bestellbar',
  soon: 'Bald verfügbar',
};

const tldList = (() => {
  const tlds = DOMAIN_TLDS.map((tld) => `.${tld}`);
  return `${tlds.slice(0, -1).join(', ')} oder ${tlds.at(-1)}`;
})();

/**
 * The one place that says what each product offers and whether it can be ordered. The home page, the
 * product pages, the "bald verfügbar" page and the company page all read it, so a claim is changed once
 * (decision 024 removed domain claims from one page while another copy kept them).
 */
export const products: readonly Product[] = [
  {
    id: 'root-server',
    name: 'Root Server',
    pitch: 'Virtuelle Server mit vollem Root-Zugriff, NVMe-Speicher und DDoS-Schutz – frei konfigurierbar nach Ihrem Bedarf.',
    features: [
      { title: 'Moderne Server-Hardware', icon: Cpu, text: 'Ihr Root Server läuft als virtuelle Maschine auf leistungsstarken Hosts mit aktuellen Mehrkern-Prozessoren und reichlich Arbeitsspeicher.' },
      { title: 'NVMe-Speicher', icon: HardDrive, text: 'Alle Daten liegen auf schnellen NVMe-SSDs – für kurze Zugriffszeiten, flinke Datenbanken und schnelle Deployments.' },
      { title: 'DDoS-Schutz inklusive', icon: ShieldCheck, text: 'Unser Netzwerk erkennt Angriffe automatisch und filtert schädlichen Datenverkehr, bevor er Ihren Server erreicht.' },
    ],
    availability: 'available',
    icon: Server,
    path: paths.rootServer,
    orderPath: paths.shop.kvmServer,
    orderLabel: 'Root Server konfigurieren',
  },
  {
    id: 'webhosting',
    name: 'Webhosting',
    pitch: 'Schnelles Webhosting mit PHP, MySQL, kostenlosem SSL-Zertifikat und One-Click-Installer für Ihre Website.',
    features: [
      { title: 'PHP & MySQL', icon: Code, text: 'Aktuelle PHP-Versionen und MySQL-Datenbanken – die Basis für nahezu jede Web-Anwendung.' },
      { title: 'FTP/SFTP-Zugang', icon: FolderSync, text: 'Laden Sie Ihre Dateien bequem per FTP oder verschlüsselt per SFTP auf Ihren Webspace.' },
      { title: 'Automatische Backups', icon: Archive, text: 'Sicherungen nach Ihrem Zeitplan, mit einem Klick wiederhergestellt – so ist Ihre Website jederzeit geschützt.' },
      { title: 'One-Click-Installer', icon: MousePointerClick, text: 'Beliebte Anwendungen wie WordPress installieren Sie in wenigen Sekunden, ganz ohne Vorkenntnisse.' },
      { title: 'Kostenlose Subdomain', icon: Globe, text: 'Starten Sie sofort mit einer kostenlosen Subdomain – eine eigene Domain können Sie jederzeit verbinden.' },
      { title: 'SSL-Zertifikat inklusive', icon: Lock, text: 'Kostenlose SSL-Zertifikate sorgen für verschlüsselte Verbindungen und das Schloss-Symbol im Browser.' },
    ],
    availability: 'available',
    icon: Globe,
    path: paths.webhosting,
    orderPath: paths.shop.webhosting,
    orderLabel: 'Webhosting bestellen',
  },
  {
    id: 'domain',
    name: 'Domains',
    // Decision 024: six extensions, nameservers (no zone editor), no WHOIS privacy, reminders instead of unattended renewal.
    pitch: `Ihre Wunschdomain unter ${tldList} – mit kostenlosen Nameservern, Transfersperre und Erinnerung vor Ablauf.`,
    features: [
      { title: 'Kostenlose Nameserver', icon: Server, text: `Ihre Domain nutzt ${PROVIDER_DNS_LABEL} (${PROVIDER_NAMESERVERS.join(', ')}) – oder Sie tragen zwei bis vier eigene Nameserver ein, jederzeit im Kundenportal.` },
      { title: 'Transfersperre und Auth-Code', icon: Lock, text: 'Die Transfersperre schützt vor unbefugten Umzügen; den Auth-Code für einen Wechsel zeigen wir erst nach erneuter Eingabe Ihres Passworts.' },
      { title: 'Erinnerung vor Ablauf', icon: RefreshCw, text: 'Wir erinnern Sie 7 Tage und 1 Tag vor Ablauf mit einem Zahlungslink, damit Ihre Domain nicht unbemerkt ausläuft.' },
    ],
    availability: 'available',
    icon: Network,
    path: paths.domain,
    orderPath: paths.domain,
    orderLabel: 'Domain suchen',
  },
  {
    id: 'cloud-storage',
    name: 'Cloud-Speicher',
    // Issue 23: Nextcloud accounts; access in the browser, the Nextcloud apps and WebDAV (no Samba/SMB).
    pitch: 'Bis zu 10 TB Speicherplatz mit Nextcloud – im Browser, mit Desktop- und Mobil-Apps oder als Netzlaufwerk über WebDAV, mit Synchronisation und Freigabelinks.',
    features: [
      { title: 'Bis zu 10\u00a0TB', icon: HardDrive, text: 'Wählen Sie den Speicherplatz, den Sie brauchen – von 100 GB bis 10 TB pro Konto. Den Tarif wechseln Sie mit jeder Verlängerung.' },
      { title: 'Im Browser', icon: Globe, text: 'Dateien hochladen, ansehen und verwalten im Nextcloud-Web-Interface – von jedem Rechner aus, ohne Installation.' },
      { title: 'Automatische Synchronisation', icon: RefreshCw, text: 'Die Nextcloud-Desktop-App für Windows, macOS und Linux gleicht Ihre Ordner automatisch zwischen Rechner und Cloud ab.' },
      { title: 'Mobile Apps', icon: FolderSync, text: 'Mit der Nextcloud-App für iOS und Android haben Sie Ihre Dateien unterwegs dabei und sichern Fotos direkt vom Smartphone.' },
      { title: 'Netzlaufwerk über WebDAV', icon: Network, text: 'Binden Sie den Speicher unter Windows, macOS und Linux als Netzlaufwerk ein – ganz ohne zusätzliche Software.' },
      { title: 'Freigabelinks', icon: Share2, text: 'Teilen Sie Dateien und Ordner im Web-Interface per Link, auf Wunsch mit Passwort und Ablaufdatum – auch mit Personen ohne eigenes Konto.' },
    ],
    availability: 'available',
    icon: Cloud,
    path: paths.cloudStorage,
    orderPath: paths.shop.cloudStorage,
    orderLabel: 'Cloud-Speicher bestellen',
  },
  {
    id: 'virtual-data-center',
    name: 'Virtual Data Center',
    // Issue 25, decision 036: a pool bought for a term; VMs, ISO library and private network inside it.
    pitch: 'Ihr eigener Ressourcen-Pool aus vCPU, RAM, Speicher und IPv4-Adressen: eigene VMs, ISO-Upload und ein privates Netzwerk, mit Laufzeiten von 1 bis 12 Monaten.',
    features: [
      { title: 'Ein Pool für alles', icon: SlidersHorizontal, text: `vCPU, RAM, NVMe-Speicher und öffentliche IPv4-Adressen als ein Pool: von ${VDC_LIMITS.cpu.min} Kernen, ${VDC_LIMITS.ram.min} GB RAM und ${VDC_LIMITS.storage.min} GB bis ${VDC_LIMITS.cpu.max} Kernen, ${VDC_LIMITS.ram.max} GB RAM und ${VDC_LIMITS.storage.max / 1000} TB, mit bis zu ${VDC_LIMITS.ipv4.max} IPv4-Adressen.` },
      { title: 'Eigene VMs', icon: Boxes, text: `Bis zu ${VDC_INCLUDED.maxVms} VMs im Pool erstellen, in der Größe ändern und löschen – jederzeit und ohne Aufpreis pro VM. Jede VM hat Root-Zugriff, Konsole, Firewall und Backups wie ein Root Server.` },
      { title: 'Eigene ISO-Images', icon: Disc3, text: `Laden Sie eigene ISO-Images in Ihre ISO-Bibliothek (${VDC_INCLUDED.isoLibraryGb} GB inklusive) und installieren Sie davon Ihr System – oder starten Sie mit einer Debian- oder Ubuntu-Vorlage.` },
      { title: 'Privates Netzwerk', icon: Network, text: 'Verbinden Sie Ihre VMs über ein eigenes privates Netz mit einem Adressbereich Ihrer Wahl. Jede öffentliche IPv4-Adresse weisen Sie einer VM zu.' },
      { title: 'Individuelle Anfrage', icon: MessageSquare, text: 'Mehr Ressourcen, als die Regler bieten? Wir erstellen Ihnen ein Angebot, das Sie direkt im Support-Ticket bezahlen.' },
    ],
    availability: 'available',
    icon: Boxes,
    path: paths.virtualDataCenter,
    orderPath: paths.shop.vdcRequest,
    orderLabel: 'Virtual Data Center bestellen',
  },
];

export function findProduct(id: ProductId): Product {
  const product = products.find((p) => p.id === id);
  if (!product) throw new Error(`unknown product ${id}`);
  return product;
}

/** "Root Server, Webhosting und Domains": names joined the German way. */
export function productNames(list: readonly Product[]): string {
  const names = list.map((p) => p.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} und ${names.at(-1)}`;
}

export const availableProducts = products.filter((p) => p.availability === 'available');
export const upcomingProducts = products.filter((p) => p.availability === 'soon');
