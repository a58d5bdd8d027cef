import { Navigate, useParams, useSearchParams } from 'react-router';
import { CalendarClock, Network, Server } from 'lucide-react';
import { CONFIG_LIMITS, DEFAULT_DISTRO, DEFAULT_WINDOWS, orderLinkMessages, parseOrderLink, type ServerConfig, type UpgradeInfo } from '@hp/contract';
import { Alert } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Spinner } from '../../../components/ui/card.tsx';
import { useSession } from '../../../lib/session.ts';
import { useUpgradeInfo } from '../api/upgrade-info.ts';
import { Configurator, NEW_SERVER_DEFAULTS, snapToLimits, type ConfigDefaults } from './configurator.tsx';
import { paths } from '../../../config/paths.ts';

/** /shop/kvm-server (new order) and /upgrade/kvm-server/:serverId (renewal or upgrade). */
export default function KvmConfiguratorPage() {
  const { serverId } = useParams();
  return serverId ? <UpgradePage key={serverId} serverId={serverId} /> : <NewOrderPage />;
}

/** A link from staff ("Neue Bestellung" on the customer page) or any shared link prefills the configurator. */
export function prefillDefaults(config: ServerConfig | null): ConfigDefaults {
  if (!config) return NEW_SERVER_DEFAULTS;
  return { ...config, distro: config.distro ?? DEFAULT_DISTRO, windowsVersion: config.windowsVersion ?? DEFAULT_WINDOWS };
}

function NewOrderPage() {
  const [params] = useSearchParams();
  const prefill = parseOrderLink((key) => params.get(key));
  const fromStaff = prefill !== null && params.get('angebot') === '1';
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title="KVM Server konfigurieren" description="Root Server frei konfigurieren: CPU, Arbeitsspeicher, NVMe-Speicher und Laufzeit wählen, Preis sofort sehen und online bestellen." />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Root Server</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">KVM Server konfigurieren</h1>
      <p className="mt-3 max-w-2xl text-slate-600">Stellen Sie Ihren Server zusammen. Der Preis passt sich sofort an; nach der Zahlung wird Ihr Server automatisch eingerichtet.</p>
      {fromStaff && <Alert tone="info" className="mt-6 max-w-3xl">{orderLinkMessages.prepared}</Alert>}
      <div className="mt-8">
        <Configurator defaults={prefillDefaults(prefill)} />
      </div>
    </div>
  );
}

const berlinDate = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });

/** The prefill: the server's current configuration, snapped into the shop's ranges; months default 1. */
function upgradeDefaults(info: UpgradeInfo): ConfigDefaults {
  return {
    os: info.os,
    distro: info.distro ?? DEFAULT_DISTRO,
    windowsVersion: info.windowsVersion ?? DEFAULT_WINDOWS,
    cpu: snapToLimits(info.cpu, CONFIG_LIMITS.cpu),
    ram: snapToLimits(info.ram, CONFIG_LIMITS.ram),
    storage: snapToLimits(info.storage, CONFIG_LIMITS.storage),
    months: 1,
  };
}

function UpgradePage({ serverId }: { serverId: string }) {
  const { token } = useSession();
  const info = useUpgradeInfo(serverId, token !== null);

  if (!token) return <Navigate to={paths.login} replace />;
  // Spec §8: a failed server-data check on the upgrade page redirects to /error.
  if (info.isError) return <Navigate to={paths.error} replace />;
  if (info.isPending) return <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6"><Spinner label="Lade Serverdaten …" /></div>;

  const server = info.data;
  const defaults = upgradeDefaults(server);
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title="Server verlängern / upgraden" />
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Root Server</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Server verlängern / upgraden</h1>
      <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700" aria-label="Aktueller Server">
        <li className="flex items-center gap-2"><Server className="size-4 text-slate-500" aria-hidden="true" /><span className="font-semibold text-slate-900">{server.name}</span></li>
        <li className="flex items-center gap-2"><Network className="size-4 text-slate-500" aria-hidden="true" />IP {server.ip ?? '–'}</li>
        <li className="flex items-center gap-2">
          <CalendarClock className="size-4 text-slate-500" aria-hidden="true" />
          Läuft bis {server.expiresAt ? berlinDate.format(new Date(server.expiresAt)) : '–'}
        </li>
      </ul>
      <p className="mt-3 max-w-2xl text-slate-600">
        Aktuell: {server.cpu} Kerne, {server.ram} GB RAM, {server.storage} GB Speicher. Wählen Sie die neue Ausstattung und die Laufzeit der Verlängerung.
      </p>
      <div className="mt-8">
        <Configurator defaults={defaults} upgrade={{ serverId: server.serverId, osName: server.osName, storageMin: defaults.storage }} />
      </div>
    </div>
  );
}
