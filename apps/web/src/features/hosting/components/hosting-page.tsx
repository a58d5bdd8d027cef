import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ArrowLeft, ExternalLink, RotateCcw, SlidersHorizontal } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Spinner } from '../../../components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { paths } from '../../../config/paths.ts';
import { useHosting } from '../api/hosting.ts';
import { siteUrl } from './format.ts';
import { HostingStatusBadge } from './status-badge.tsx';
import { RestartDialog } from './restart-dialog.tsx';
import { OverviewTab } from './tabs/overview.tsx';
import { WebsiteTab } from './tabs/website.tsx';
import { DatabasesTab } from './tabs/databases.tsx';
import { BackupsTab } from './tabs/backups.tsx';
import { SettingsTab } from './tabs/settings.tsx';

/**
 * The web hosting package page (portal spec "Web hosting package page"): header with the package's
 * actions, then Übersicht, Website, Datenbanken, Backups, Einstellungen. The package is re-read every 3 s
 * while something is pending (api/hosting.ts).
 */
export default function HostingPage() {
  const { hostingId = '' } = useParams();
  const hosting = useHosting(hostingId);
  const [tab, setTab] = useState('overview');
  const [restartOpen, setRestartOpen] = useState(false);

  if (hosting.isPending) return <Spinner label="Hosting-Paket wird geladen …" />;
  if (hosting.isError) {
    if (hosting.error instanceof ApiRequestError && (hosting.error.status === 404 || hosting.error.status === 400)) return <Navigate to={paths.notFound404} replace />;
    return <Alert tone="error">{hosting.error.message} <button type="button" className="underline" onClick={() => hosting.refetch()}>Erneut versuchen</button></Alert>;
  }
  const detail = hosting.data;

  return (
    <div className="mx-auto min-w-0 max-w-6xl">
      <PageMeta title={detail.name} />
      <Link to={paths.dashboard.root} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"><ArrowLeft className="size-4" aria-hidden="true" /> Zur Übersicht</Link>
      <header className="mt-3 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-full">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="min-w-0 text-2xl font-bold text-slate-900 [overflow-wrap:anywhere]">{detail.name}</h1>
            <span aria-live="polite"><HostingStatusBadge status={detail.status} /></span>
          </div>
          <p className="mt-1 break-words text-sm text-slate-600">Hosting ID {detail.hostingId} · {detail.primaryDomain}</p>
        </div>
        <HeaderActions detail={detail} onRestart={() => setRestartOpen(true)} />
      </header>
      <PackageState detail={detail} />
      <RestartDialog detail={detail} open={restartOpen} onOpenChange={setRestartOpen} />
      <Tabs value={tab} onValueChange={setTab} className="mt-6">
        <TabsList aria-label="Bereiche des Hosting-Pakets">
          <TabsTrigger value="overview">Übersicht</TabsTrigger>
          <TabsTrigger value="website">Website</TabsTrigger>
          <TabsTrigger value="databases">Datenbanken</TabsTrigger>
          <TabsTrigger value="backups">Backups</TabsTrigger>
          <TabsTrigger value="settings">Einstellungen</TabsTrigger>
        </TabsList>
        <TabsContent value="overview"><OverviewTab detail={detail} onRestart={() => setRestartOpen(true)} onTab={setTab} /></TabsContent>
        <TabsContent value="website"><WebsiteTab detail={detail} /></TabsContent>
        <TabsContent value="databases"><DatabasesTab detail={detail} /></TabsContent>
        <TabsContent value="backups"><BackupsTab detail={detail} /></TabsContent>
        <TabsContent value="settings"><SettingsTab detail={detail} /></TabsContent>
      </Tabs>
    </div>
  );
}

const externalLink = { target: '_blank', rel: 'noopener noreferrer' } as const;

function HeaderActions({ detail, onRestart }: { detail: HostingDetail; onRestart: () => void }) {
  const site = detail.site;
  // A package whose set-up failed has no website and no panel account: nothing to open or restart.
  if (detail.status === 'failed') return null;
  return (
    <div className="flex flex-wrap gap-2">
      <a href={siteUrl(detail.primaryDomain)} {...externalLink} className={buttonClass('outline', 'sm')}>
        <ExternalLink className="size-4" aria-hidden="true" /> Website öffnen<span className="sr-only"> (neues Fenster)</span>
      </a>
      <Button variant="outline" size="sm" onClick={onRestart}><RotateCcw className="size-4" aria-hidden="true" /> Neustart</Button>
      {site ? (
        <a href={site.panelUrl} {...externalLink} className={buttonClass('primary', 'sm')}>
          <SlidersHorizontal className="size-4" aria-hidden="true" /> {detail.panelName}<span className="sr-only"> öffnen (neues Fenster)</span>
        </a>
      ) : (
        <Button size="sm" disabled title="Das Panel ist erst erreichbar, wenn das Paket aktiv ist."><SlidersHorizontal className="size-4" aria-hidden="true" /> {detail.panelName}</Button>
      )}
    </div>
  );
}

/** Set-up, suspension, failure or an unreachable panel: said once, above the tabs. */
function PackageState({ detail }: { detail: HostingDetail }) {
  let content = null;
  if (detail.status === 'provisioning') {
    content = (
      <Alert tone="info" className="flex items-center gap-2">
        <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
        <span>Ihr Paket wird eingerichtet. Das dauert meist nur wenige Minuten; diese Seite aktualisiert sich selbst.{detail.statusMessage ? ` ${detail.statusMessage}` : ''}</span>
      </Alert>
    );
  } else if (detail.status === 'suspended' || detail.status === 'failed') {
    content = detail.status === 'failed'
      ? <Alert tone="error">{detail.statusMessage ?? 'Die Einrichtung ist fehlgeschlagen.'} Die Zahlung wird automatisch erstattet; Sie erhalten dazu eine E-Mail.</Alert>
      : <Alert tone="warning">{detail.statusMessage ?? 'Das Paket ist gesperrt.'}</Alert>;
  } else if (!detail.site) {
    content = <Alert tone="warning">{detail.panelError ?? 'Das Hosting-Panel ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.'}</Alert>;
  }
  return <div className="mt-4 empty:hidden" aria-live="polite">{content}</div>;
}
