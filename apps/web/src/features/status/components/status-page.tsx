import { useId, type ReactNode } from 'react';
import { ChevronDown, CircleCheck, History, OctagonAlert, RefreshCw, TriangleAlert, Wrench } from 'lucide-react';
import {
  overallStatusLabels,
  type ServiceStatus,
  type StatusIncident,
  type StatusMaintenance,
  type StatusPageData,
} from '@hp/contract';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useStatusPage } from '../api/status.ts';
import { formatDateTime, formatDateTimeSeconds, formatRange } from '../format.ts';
import { IncidentStatusBadge, MaintenanceStatusBadge, ServiceStatusBadge, SeverityBadge } from './status-badges.tsx';
import { cn } from '../../../lib/cn.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';

const REFRESH_MS = 60_000;

const bannerStyles: Record<ServiceStatus, { box: string; icon: typeof CircleCheck; iconClass: string; text: string }> = {
  operational: { box: 'border-green-200 bg-green-50 text-green-900', icon: CircleCheck, iconClass: 'text-green-700', text: 'Alle Dienste arbeiten normal.' },
  partial_outage: { box: 'border-amber-300 bg-amber-50 text-amber-950', icon: TriangleAlert, iconClass: 'text-amber-700', text: 'Einzelne Dienste sind eingeschränkt. Wir arbeiten an einer Lösung.' },
  major_outage: { box: 'border-red-300 bg-red-50 text-red-900', icon: OctagonAlert, iconClass: 'text-red-700', text: 'Mindestens ein Dienst ist ausgefallen. Wir arbeiten mit Hochdruck an einer Lösung.' },
};

/**
 * The public system status. The server renders it with the current data (modules/status/status.pages.ts,
 * decision 016) and the browser hydrates from the embedded data, then refreshes it every minute. Without
 * a server bundle (or data), the skeleton shows until the data has loaded.
 */
export function StatusPage() {
  const query = useStatusPage({ refetchInterval: REFRESH_MS });

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
      <PageMeta title="Systemstatus" description="Aktueller Status aller Dienste von Musterhost: Server Hosting, Webserver, Cloud Storage, Datenbank, E-Mail und DNS, mit Störungen und geplanten Wartungsarbeiten." />
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Systemstatus</h1>
      <p className="mt-2 text-slate-700">Aktueller Zustand unserer Dienste, laufende Störungen und geplante Wartungsarbeiten.</p>

      {query.data ? (
        <StatusContent data={query.data} loadedAt={query.dataUpdatedAt} refreshing={query.isFetching} onRefresh={() => query.refetch()} />
      ) : query.isError ? (
        <Alert tone="error" className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>Der Systemstatus konnte nicht geladen werden. {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
            <RefreshCw className="size-4" aria-hidden="true" /> Erneut versuchen
          </Button>
        </Alert>
      ) : (
        <StatusSkeleton />
      )}
    </div>
  );
}

function StatusSkeleton() {
  const bar = 'animate-pulse bg-slate-200';
  return (
    <div aria-busy="true" className="mt-8">
      <p role="status" className="sr-only">Systemstatus wird geladen …</p>
      <div className={cn(bar, 'h-20 rounded-xl')} />
      <div className={cn(bar, 'mt-3 h-4 w-56 rounded')} />
      <Card className="mt-10 divide-y divide-slate-100">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="flex items-center justify-between px-5 py-4">
            <div className={cn(bar, 'h-4 w-36 rounded')} />
            <div className={cn(bar, 'h-5 w-28 rounded-full')} />
          </div>
        ))}
      </Card>
      <div className={cn(bar, 'mt-10 h-24 rounded-xl')} />
    </div>
  );
}

function Section({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="mt-10" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-4 flex items-center gap-2 text-xl font-semibold text-slate-900">{icon}{title}</h2>
      {children}
    </section>
  );
}

function EmptyState({ children }: { children: ReactNode }) {
  return <Card className="px-5 py-6 text-slate-700">{children}</Card>;
}

/**
 * "Aktualisieren". The page comes rendered from the server: until React owns it, a click would do nothing,
 * so the button stays disabled until then (its own component, so only it renders again at that moment).
 */
function RefreshButton({ refreshing, onRefresh }: { refreshing: boolean; onRefresh: () => void }) {
  const hydrated = useHydrated();
  return (
    <button type="button" onClick={onRefresh} disabled={refreshing || !hydrated} className="inline-flex items-center gap-1 rounded font-medium text-brand-700 hover:underline disabled:opacity-60">
      <RefreshCw className={cn('size-3.5', refreshing && 'animate-spin')} aria-hidden="true" /> Aktualisieren
    </button>
  );
}

function StatusContent({ data, loadedAt, refreshing, onRefresh }: { data: StatusPageData; loadedAt: number; refreshing: boolean; onRefresh: () => void }) {
  const banner = bannerStyles[data.overallStatus];
  const BannerIcon = banner.icon;
  const activeIncidents = data.incidents.filter((i) => i.status !== 'resolved');
  const resolvedIncidents = data.incidents.filter((i) => i.status === 'resolved');
  const plannedMaintenances = data.maintenances.filter((m) => m.status !== 'completed');
  const completedMaintenances = data.maintenances.filter((m) => m.status === 'completed').reverse();
  const historyCount = resolvedIncidents.length + completedMaintenances.length;

  return (
    <>
      <div role="status" className={cn('mt-8 flex items-center gap-4 rounded-xl border px-5 py-5', banner.box)}>
        <BannerIcon className={cn('size-9 shrink-0', banner.iconClass)} aria-hidden="true" />
        <div>
          <p className="text-lg font-semibold">{overallStatusLabels[data.overallStatus]}</p>
          <p className="text-sm">{banner.text}</p>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        <span>Letztes Update: <time dateTime={new Date(loadedAt).toISOString()}>{formatDateTimeSeconds(loadedAt)}</time></span>
        <RefreshButton refreshing={refreshing} onRefresh={onRefresh} />
      </div>

      <Section title="Dienste">
        {data.services.length ? (
          <Card>
            <ul className="divide-y divide-slate-100">
              {data.services.map((service) => (
                <li key={service.id} className="flex items-center justify-between gap-4 px-5 py-3.5">
                  <span className="font-medium text-slate-900">{service.name}</span>
                  <ServiceStatusBadge status={service.status} />
                </li>
              ))}
            </ul>
          </Card>
        ) : (
          <EmptyState>Es sind noch keine Dienste eingetragen.</EmptyState>
        )}
      </Section>

      <Section title="Aktuelle Störungen" icon={<TriangleAlert className="size-5 text-amber-700" aria-hidden="true" />}>
        {activeIncidents.length ? (
          <div className="space-y-4">{activeIncidents.map((incident) => <IncidentCard key={incident.id} incident={incident} />)}</div>
        ) : (
          <EmptyState>Derzeit gibt es keine aktiven Störungen.</EmptyState>
        )}
      </Section>

      <Section title="Geplante Wartungen" icon={<Wrench className="size-5 text-brand-700" aria-hidden="true" />}>
        {plannedMaintenances.length ? (
          <div className="space-y-4">{plannedMaintenances.map((m) => <MaintenanceCard key={m.id} maintenance={m} />)}</div>
        ) : (
          <EmptyState>Derzeit sind keine Wartungsarbeiten geplant.</EmptyState>
        )}
      </Section>

      {historyCount > 0 && (
        <Section title="Verlauf" icon={<History className="size-5 text-slate-600" aria-hidden="true" />}>
          <details className="group rounded-xl border border-slate-200 bg-white shadow-sm">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-5 py-4 font-medium text-slate-900 [&::-webkit-details-marker]:hidden">
              <span>Behobene Störungen und abgeschlossene Wartungen ({historyCount})</span>
              <ChevronDown className="size-5 shrink-0 text-slate-600 transition-transform group-open:rotate-180" aria-hidden="true" />
            </summary>
            <div className="space-y-4 border-t border-slate-100 p-4 sm:p-5">
              {resolvedIncidents.map((incident) => <IncidentCard key={`i${incident.id}`} incident={incident} />)}
              {completedMaintenances.map((m) => <MaintenanceCard key={`m${m.id}`} maintenance={m} />)}
            </div>
          </details>
        </Section>
      )}
    </>
  );
}

function IncidentCard({ incident }: { incident: StatusIncident }) {
  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-lg font-semibold text-slate-900">{incident.title}</h3>
        <div className="flex flex-wrap gap-2">
          <IncidentStatusBadge status={incident.status} />
          <SeverityBadge severity={incident.severity} />
        </div>
      </div>
      <p className="mt-1 text-sm text-slate-600">Gemeldet am <time dateTime={incident.date}>{formatDateTime(incident.date)}</time></p>
      {incident.updates.length > 0 && (
        <ol className="mt-4 space-y-4 border-l-2 border-slate-200 pl-5" aria-label={`Verlauf: ${incident.title}`}>
          {incident.updates.map((update) => (
            <li key={update.id} className="relative">
              <span className="absolute -left-[27px] top-1.5 size-3 rounded-full border-2 border-white bg-slate-400 ring-1 ring-slate-300" aria-hidden="true" />
              <div className="flex flex-wrap items-center gap-2">
                <IncidentStatusBadge status={update.status} />
                <time dateTime={update.date} className="text-sm text-slate-600">{formatDateTime(update.date)}</time>
              </div>
              <p className="mt-1.5 whitespace-pre-line text-slate-800">{update.message}</p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function MaintenanceCard({ maintenance }: { maintenance: StatusMaintenance }) {
  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-lg font-semibold text-slate-900">{maintenance.title}</h3>
        <MaintenanceStatusBadge status={maintenance.status} />
      </div>
      <p className="mt-1 text-sm text-slate-600">
        <time dateTime={maintenance.startDate}>{formatRange(maintenance.startDate, maintenance.endDate)}</time>
      </p>
      <p className="mt-3 whitespace-pre-line text-slate-800">{maintenance.description}</p>
      {maintenance.affectedServices.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-700">Betroffen:</span>
          <ul className="flex flex-wrap gap-1.5">
            {maintenance.affectedServices.map((name) => (
              <li key={name} className="rounded-md bg-slate-100 px-2 py-0.5 text-slate-800">{name}</li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}
