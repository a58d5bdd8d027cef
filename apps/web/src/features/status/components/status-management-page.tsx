import { Link, Navigate, useSearchParams } from 'react-router';
import { ExternalLink, Lock, RefreshCw } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Alert, Spinner } from '../../../components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { isStaff, useSession } from '../../../lib/session.ts';
import { useStatusPage } from '../api/status.ts';
import { OverallStatusBadge } from './status-badges.tsx';
import { ServicesTab } from './services-tab.tsx';
import { IncidentsTab } from './incidents-tab.tsx';
import { MaintenancesTab } from './maintenances-tab.tsx';
import { paths } from '../../../config/paths.ts';

const TABS = [
  { value: 'dienste', label: 'Dienste' },
  { value: 'stoerungen', label: 'Störungen' },
  { value: 'wartungen', label: 'Wartungen' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

export default function StatusCreatePage() {
  const { token, claims } = useSession();
  if (!token) return <Navigate to={paths.login} replace />;
  if (!isStaff(claims?.role)) return <AccessDenied />;
  return <StatusManagement />;
}

function AccessDenied() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6">
      <PageMeta title="Zugriff verweigert" />
      <Lock className="mx-auto size-12 text-slate-500" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Zugriff verweigert</h1>
      <p className="mt-3 text-slate-700">Die Status-Verwaltung ist nur für Mitarbeiter und Inhaber zugänglich.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.status} variant="primary">Zur Statusseite</ButtonLink>
        <ButtonLink to={paths.dashboard.root} variant="outline">Zum Dashboard</ButtonLink>
      </div>
    </div>
  );
}

function StatusManagement() {
  const query = useStatusPage();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'dienste';

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-12">
      <PageMeta title="Status-Verwaltung" />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Status-Verwaltung</h1>
          <p className="mt-2 text-slate-700">Dienste, Störungen und Wartungen der öffentlichen Statusseite pflegen.</p>
        </div>
        <Link to={paths.status} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline">
          Öffentliche Statusseite <ExternalLink className="size-4" aria-hidden="true" />
        </Link>
      </div>

      {query.data ? (
        <>
          <p className="mt-6 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            Gesamtstatus: <OverallStatusBadge status={query.data.overallStatus} />
          </p>
          <Tabs value={tab} onValueChange={(v) => setParams({ tab: v }, { replace: true })} className="mt-6">
            <TabsList aria-label="Bereiche der Status-Verwaltung">
              {TABS.map((t) => <TabsTrigger key={t.value} value={t.value}>{t.label}</TabsTrigger>)}
            </TabsList>
            <TabsContent value="dienste"><ServicesTab services={query.data.services} /></TabsContent>
            <TabsContent value="stoerungen"><IncidentsTab incidents={query.data.incidents} /></TabsContent>
            <TabsContent value="wartungen"><MaintenancesTab data={query.data} /></TabsContent>
          </Tabs>
        </>
      ) : query.isError ? (
        <Alert tone="error" className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>Die Statusdaten konnten nicht geladen werden. {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
            <RefreshCw className="size-4" aria-hidden="true" /> Erneut versuchen
          </Button>
        </Alert>
      ) : (
        <div className="mt-10"><Spinner label="Statusdaten werden geladen …" /></div>
      )}
    </div>
  );
}
