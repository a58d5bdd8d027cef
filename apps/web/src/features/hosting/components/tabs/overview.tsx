import { useState, type ReactNode } from 'react';
import { ExternalLink, Layers, RotateCcw, Code2 } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button, buttonClass } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { APP_NAME, countWithUpdates, formatDate, siteUrl, WEBSITE_TYPE_LABEL } from '../format.ts';
import { AppStateBadge, PendingBadge, SslBadge } from '../status-badge.tsx';
import { UsageBar } from '../usage-bar.tsx';
import { PhpVersionDialog } from '../php-version-dialog.tsx';
import { WebsiteTypeDialog } from '../website-type-dialog.tsx';

/** Übersicht (spec): the package at a glance, usage bars, the installed application and quick actions. */
export function OverviewTab({ detail, onRestart, onTab }: { detail: HostingDetail; onRestart: () => void; onTab: (tab: string) => void }) {
  const [dialog, setDialog] = useState<'php' | 'type' | null>(null);
  const site = detail.site;
  const app = site?.app ?? null;
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="mb-3 font-semibold text-slate-900">Schnellaktionen</h2>
        <div className="flex flex-wrap gap-2">
          {detail.status !== 'failed' && (
            <>
              <a href={siteUrl(detail.primaryDomain)} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
                <ExternalLink className="size-4" aria-hidden="true" /> Website öffnen<span className="sr-only"> (neues Fenster)</span>
              </a>
              <Button variant="outline" size="sm" onClick={onRestart}><RotateCcw className="size-4" aria-hidden="true" /> Apache neustarten</Button>
            </>
          )}
          <Button variant="outline" size="sm" disabled={!site} onClick={() => setDialog('php')}><Code2 className="size-4" aria-hidden="true" /> PHP-Version ändern</Button>
          <Button variant="outline" size="sm" disabled={!site} onClick={() => setDialog('type')}><Layers className="size-4" aria-hidden="true" /> Website-Typ ändern</Button>
        </div>
        {site?.pendingChanges && <p className="mt-3" aria-live="polite"><PendingBadge /></p>}
        {dialog === 'php' && <PhpVersionDialog detail={detail} open onOpenChange={(o) => !o && setDialog(null)} />}
        {dialog === 'type' && <WebsiteTypeDialog detail={detail} open onOpenChange={(o) => !o && setDialog(null)} />}
      </Card>

      {site && (
        <div className="grid gap-4 sm:grid-cols-2">
          <UsageBar label="Speicherplatz" usedMb={site.usage.diskUsedMb} quotaMb={site.usage.diskQuotaMb} />
          <UsageBar label="Traffic (dieser Monat)" usedMb={site.usage.trafficThisMonthMb} quotaMb={site.usage.trafficQuotaMb} />
        </div>
      )}

      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">Paketdaten</h2>
        <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
          <Row label="Primäre Domain" value={detail.primaryDomain} />
          <Row label="Tarif" value={detail.planName} />
          <Row label="Website-Typ" value={WEBSITE_TYPE_LABEL[detail.websiteType]} />
          <Row label="PHP-Version" value={site ? `PHP ${site.phpVersion}` : '–'} />
          <Row label="Datenbanken" value={site ? `${site.databasesUsed} von ${detail.limits.databases} genutzt` : `bis zu ${detail.limits.databases}`} />
          <Row label="Webserver" value={`Apache, verwaltet über ${detail.panelName}`} />
          <Row label="SSL" value={site ? <SslBadge ssl={site.ssl} /> : '–'} />
          <Row label="Laufzeit bis" value={detail.expiresAt ? formatDate(detail.expiresAt) : 'Unbefristet'} />
        </dl>
      </Card>

      {app && (
        <Card className="p-6">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">{APP_NAME[app.kind]}</h2>
            <Button variant="outline" size="sm" onClick={() => onTab('website')}>Details und Updates</Button>
          </div>
          <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
            <Row label="Version" value={app.version === app.latestVersion ? `${app.version} (aktuell)` : `${app.version} (neu: ${app.latestVersion})`} />
            <Row label="Status" value={<span aria-live="polite"><AppStateBadge state={app.state} /></span>} />
            <Row label="Plugins" value={countWithUpdates(app.plugins.length, app.plugins.filter((p) => p.update !== 'none').length)} />
            <Row label="Themes" value={countWithUpdates(app.themes.length, app.themes.filter((t) => t.update !== 'none').length)} />
          </dl>
        </Card>
      )}
    </div>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return <div className="min-w-0"><dt className="text-slate-600">{label}</dt><dd className="break-words font-medium text-slate-900">{value}</dd></div>;
}
