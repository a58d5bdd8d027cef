import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Database, ExternalLink, Globe, Palette, RefreshCw, ShieldCheck } from 'lucide-react';
import type { AppFinding, AppTool, HostingApp, HostingDetail } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../components/ui/table.tsx';
import { useUpdateApp } from '../api/hosting.ts';
import { useActivateTheme, useRunAppTool, useSetPluginActive, useUpdatePlugin } from '../api/app-tools.ts';
import { APP_NAME, appAdminUrl, appCustomizeUrl, countWithUpdates, errorText, formatDateTime, type HostingSite } from './format.ts';
import { AppStateBadge } from './status-badge.tsx';

/** The application's words: Joomla has extensions and templates where WordPress has plugins and themes. */
const WORDS = {
  wordpress: { plugin: 'Plugin', plugins: 'Plugins', theme: 'Theme', themes: 'Themes' },
  joomla: { plugin: 'Erweiterung', plugins: 'Erweiterungen', theme: 'Template', themes: 'Templates' },
} as const;

const JOB_LABEL: Record<NonNullable<HostingApp['job']>['kind'], string> = {
  'security-check': 'Der Sicherheits-Check läuft',
  'optimize-database': 'Die Datenbank wird optimiert',
  'update-all': 'Alles wird aktualisiert',
  'update-core': 'wird aktualisiert',
  'update-plugin': 'Ein Plugin wird aktualisiert',
};
const SEVERITY: Record<AppFinding['severity'], { label: string; tone: BadgeTone }> = {
  critical: { label: 'Kritisch', tone: 'danger' }, warning: { label: 'Warnung', tone: 'warning' }, info: { label: 'Hinweis', tone: 'info' },
};

function Info({ label, value }: { label: string; value: ReactNode }) {
  return <div className="min-w-0"><dt className="text-slate-600">{label}</dt><dd className="break-words font-medium text-slate-900">{value}</dd></div>;
}

/** Website tab (spec): the installed WordPress/Joomla with its tools, plugins and themes. */
export function InstalledApp({ detail, site, app }: { detail: HostingDetail; site: HostingSite; app: HostingApp }) {
  const update = useUpdateApp(detail.id);
  const tool = useRunAppTool(detail.id);
  const name = APP_NAME[app.kind];
  const words = WORDS[app.kind];
  const upToDate = app.version === app.latestVersion;
  const busy = app.state === 'installing' || app.state === 'updating' || app.job !== null;
  const primary = site.domains.find((d) => d.type === 'primary');
  const pluginUpdates = app.plugins.filter((p) => p.update !== 'none').length;
  const themeUpdates = app.themes.filter((t) => t.update !== 'none').length;
  const allCurrent = upToDate && pluginUpdates === 0 && themeUpdates === 0;
  const fail = (fallback: string) => (err: unknown) => toast.error(errorText(err, fallback), { duration: 7000 });
  const runUpdate = () => update.mutate(undefined, {
    onSuccess: (res) => toast.success(res.message ?? `${name} wird aktualisiert.`),
    onError: fail(`${name} konnte nicht aktualisiert werden.`),
  });
  const run = (which: AppTool, fallback: string) => tool.mutateAsync(which).then(
    (res) => { toast.success(res.message ?? 'Der Vorgang wurde gestartet.'); },
    (err: unknown) => { fail(fallback)(err); throw err; },
  );
  const running = (which: AppTool) => app.job?.kind === which || (tool.isPending && tool.variables === which);
  const jobNote = app.job
    ? `${app.job.kind === 'update-core' ? `${name} ${JOB_LABEL['update-core']}` : app.job.kind === 'update-plugin'
      ? `„${app.plugins.find((p) => p.slug === app.job!.target)?.name ?? words.plugin}“ wird aktualisiert` : JOB_LABEL[app.job.kind]}; diese Seite aktualisiert sich selbst.`
    : null;

  return (
    <Card className="min-w-0 p-6" role="region" aria-labelledby="app-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id="app-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Globe className="size-5" aria-hidden="true" />{name}</h2>
        <div className="flex flex-wrap gap-2">
          <a href={appAdminUrl(detail.primaryDomain, app.kind)} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
            <ExternalLink className="size-4" aria-hidden="true" /> Admin öffnen<span className="sr-only"> (neues Fenster)</span>
          </a>
          <Button size="sm" onClick={runUpdate} loading={update.isPending || app.job?.kind === 'update-core'} disabled={upToDate || busy} aria-describedby="app-update-note">
            <RefreshCw className="size-4" aria-hidden="true" /> {name} aktualisieren
          </Button>
        </div>
      </div>
      <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
        <Info label="Version und Status" value={<span className="flex flex-wrap items-center gap-2">{app.version} <span aria-live="polite"><AppStateBadge state={app.state} /></span></span>} />
        <Info label="Installationsverzeichnis" value={<code className="font-mono text-sm">{primary?.directory ?? site.ftp.directory}</code>} />
        <Info label={words.plugins} value={countWithUpdates(app.plugins.length, pluginUpdates)} />
        <Info label={words.themes} value={countWithUpdates(app.themes.length, themeUpdates)} />
      </dl>
      <p id="app-update-note" className="mt-3 text-sm text-slate-600" aria-live="polite">
        {jobNote ?? (app.state === 'installing' ? `${name} wird gerade installiert; diese Seite aktualisiert sich selbst.`
          : upToDate ? `${name} ist auf dem neuesten Stand (${app.version}).`
            : `Version ${app.latestVersion} ist verfügbar. Legen Sie vor dem Update am besten ein Backup an.`)}
      </p>
      {app.state === 'failed' && <Alert tone="error" className="mt-3">Der letzte Vorgang an {name} ist fehlgeschlagen. Bitte versuchen Sie es erneut oder wenden Sie sich an den Support.</Alert>}

      <h3 className="mt-6 font-semibold text-slate-900">Werkzeuge</h3>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" loading={running('security-check')} disabled={busy} onClick={() => { void run('security-check', 'Der Sicherheits-Check konnte nicht gestartet werden.').catch(() => undefined); }}>
          <ShieldCheck className="size-4" aria-hidden="true" /> {running('security-check') ? 'Sicherheits-Check läuft …' : 'Sicherheits-Check'}
        </Button>
        <Button size="sm" variant="outline" loading={running('optimize-database')} disabled={busy} onClick={() => { void run('optimize-database', 'Die Datenbank konnte nicht optimiert werden.').catch(() => undefined); }}>
          <Database className="size-4" aria-hidden="true" /> {running('optimize-database') ? 'Datenbank wird optimiert …' : 'Datenbank optimieren'}
        </Button>
        <ConfirmDialog
          trigger={(
            <Button size="sm" variant="outline" loading={running('update-all')} disabled={busy || allCurrent} aria-describedby={allCurrent ? 'app-all-current' : undefined}>
              <RefreshCw className="size-4" aria-hidden="true" /> {running('update-all') ? 'Wird aktualisiert …' : 'Alle aktualisieren'}
            </Button>
          )}
          title="Alles aktualisieren?"
          description={`${name}, alle ${words.plugins} und ${words.themes} werden auf die neueste Version gebracht. Das verändert Ihre Website; während des Updates ist sie kurz im Wartungsmodus. Legen Sie vorher am besten ein Backup an.`}
          confirmLabel="Alle aktualisieren"
          onConfirm={() => run('update-all', 'Die Aktualisierung konnte nicht gestartet werden.')}
        />
      </div>
      {allCurrent && <p id="app-all-current" className="mt-2 text-sm text-slate-600">{name}, {words.plugins} und {words.themes} sind aktuell.</p>}
      <ToolResults app={app} />

      {app.plugins.length > 0 && <PluginTable detail={detail} app={app} busy={busy} />}
      {app.themes.length > 0 && <ThemeTable detail={detail} app={app} busy={busy} />}
    </Card>
  );
}

/** The last security check and optimisation, with their time: what the tools found, not a toast that vanishes. */
function ToolResults({ app }: { app: HostingApp }) {
  const check = app.lastSecurityCheck;
  const optimized = app.lastOptimized;
  if (!check && !optimized) return null;
  return (
    <div className="mt-4 space-y-4" aria-live="polite">
      {check && (
        <section aria-labelledby="security-check-heading" className="rounded-lg border border-slate-200 p-4">
          <h4 id="security-check-heading" className="font-semibold text-slate-900">Ergebnis des Sicherheits-Checks</h4>
          <p className="text-sm text-slate-600">Geprüft am {formatDateTime(check.at)}</p>
          {check.findings.length === 0 ? (
            <p className="mt-2 text-sm text-green-800">Keine Auffälligkeiten gefunden.</p>
          ) : (
            <ul className="mt-3 space-y-2" aria-label="Befunde des Sicherheits-Checks">
              {check.findings.map((f) => (
                <li key={f.text} className="flex flex-col gap-1 text-sm text-slate-800 sm:flex-row sm:items-start sm:gap-3">
                  <Badge tone={SEVERITY[f.severity].tone} className="self-start">{SEVERITY[f.severity].label}</Badge>
                  <span>{f.text}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {optimized && (
        <p className="text-sm text-slate-700">
          Datenbank zuletzt optimiert am {formatDateTime(optimized.at)}: {optimized.savedMb > 0 ? `${optimized.savedMb.toLocaleString('de-DE', { maximumFractionDigits: 1 })} MB freigegeben.` : 'es war nichts freizugeben.'}
        </p>
      )}
    </div>
  );
}

function PluginTable({ detail, app, busy }: { detail: HostingDetail; app: HostingApp; busy: boolean }) {
  const update = useUpdatePlugin(detail.id);
  const toggle = useSetPluginActive(detail.id);
  const words = WORDS[app.kind];
  const name = APP_NAME[app.kind];
  const [error, setError] = useState<string | null>(null);
  const done = (res: { message?: string }) => { setError(null); toast.success(res.message ?? 'Gespeichert.'); };
  const failed = (fallback: string) => (err: unknown) => { const text = errorText(err, fallback); setError(text); toast.error(text, { duration: 7000 }); };
  return (
    <div className="mt-6">
      <h3 className="mb-2 font-semibold text-slate-900">{words.plugins}</h3>
      {error && <Alert tone="error" className="mb-3">{error}</Alert>}
      <DataTable caption={`${words.plugins} von ${name}`} rows={app.plugins} rowKey={(p) => p.slug} columns={[
        { header: 'Name', rowHeader: true, cell: (p) => p.name },
        { header: 'Version', cell: (p) => (p.update !== 'none' ? `${p.version} → ${p.latestVersion}` : p.version) },
        { header: 'Aktiv', cell: (p) => (p.active ? 'Aktiviert' : 'Deaktiviert') },
        { header: 'Status', cell: (p) => (app.job?.kind === 'update-plugin' && app.job.target === p.slug ? <Badge tone="info">Wird aktualisiert …</Badge>
          : p.update === 'critical' ? <Badge tone="danger">Kritisches Update</Badge> : p.update === 'available' ? <Badge tone="warning">Update verfügbar</Badge> : <Badge tone="success">Aktuell</Badge>) },
        {
          header: 'Aktionen', actions: true,
          cell: (p) => {
            const updating = (update.isPending && update.variables === p.slug) || (app.job?.kind === 'update-plugin' && app.job.target === p.slug);
            const toggling = toggle.isPending && toggle.variables?.slug === p.slug;
            return (
              <div className="flex flex-wrap justify-end gap-1">
                {p.update !== 'none' && (
                  <Button size="sm" variant="outline" loading={updating} disabled={busy} aria-label={`${words.plugin} ${p.name} aktualisieren`}
                    onClick={() => update.mutate(p.slug, { onSuccess: done, onError: failed(`„${p.name}“ konnte nicht aktualisiert werden.`) })}>
                    Aktualisieren
                  </Button>
                )}
                <Button size="sm" variant="ghost" loading={toggling} disabled={busy} aria-label={`${words.plugin} ${p.name} ${p.active ? 'deaktivieren' : 'aktivieren'}`}
                  onClick={() => toggle.mutate({ slug: p.slug, active: !p.active }, { onSuccess: done, onError: failed(`„${p.name}“ konnte nicht geändert werden.`) })}>
                  {p.active ? 'Deaktivieren' : 'Aktivieren'}
                </Button>
              </div>
            );
          },
        },
      ]} />
    </div>
  );
}

function ThemeTable({ detail, app, busy }: { detail: HostingDetail; app: HostingApp; busy: boolean }) {
  const activate = useActivateTheme(detail.id);
  const words = WORDS[app.kind];
  const name = APP_NAME[app.kind];
  return (
    <div className="mt-6">
      <h3 className="mb-2 font-semibold text-slate-900">{words.themes}</h3>
      <DataTable caption={`${words.themes} von ${name}`} rows={app.themes} rowKey={(t) => t.slug} columns={[
        { header: 'Name', rowHeader: true, cell: (t) => t.name },
        { header: 'Version', cell: (t) => (t.update !== 'none' ? `${t.version} → ${t.latestVersion}` : t.version) },
        { header: 'Aktiv', cell: (t) => (t.active ? `Aktives ${words.theme}` : '–') },
        { header: 'Status', cell: (t) => (t.update === 'available' ? <Badge tone="warning">Update verfügbar</Badge> : <Badge tone="success">Aktuell</Badge>) },
        {
          header: 'Aktionen', actions: true,
          cell: (t) => (
            <div className="flex flex-wrap justify-end gap-1">
              <a href={appCustomizeUrl(detail.primaryDomain, app.kind, t.slug)} target="_blank" rel="noopener noreferrer" className={buttonClass('ghost', 'sm')}
                aria-label={`${words.theme} ${t.name} anpassen (im Admin-Bereich von ${name}, neues Fenster)`}>
                <Palette className="size-4" aria-hidden="true" /> Anpassen
              </a>
              {!t.active && (
                <Button size="sm" variant="outline" loading={activate.isPending && activate.variables === t.slug} disabled={busy} aria-label={`${words.theme} ${t.name} aktivieren`}
                  onClick={() => activate.mutate(t.slug, {
                    onSuccess: (res) => toast.success(res.message ?? `„${t.name}“ ist jetzt aktiv.`),
                    onError: (err) => toast.error(errorText(err, `„${t.name}“ konnte nicht aktiviert werden.`), { duration: 7000 }),
                  })}>
                  Aktivieren
                </Button>
              )}
            </div>
          ),
        },
      ]} />
    </div>
  );
}
