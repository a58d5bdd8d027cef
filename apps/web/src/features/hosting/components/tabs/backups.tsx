import { useEffect, useRef, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Archive, DatabaseBackup, Download, RotateCcw } from 'lucide-react';
import {
  BACKUP_FREQUENCIES, BACKUP_FREQUENCY_LABEL, BackupScheduleInput, RETENTION_DAYS, retentionCopies, retentionCoveredDays, type HostingDetail,
} from '@hp/contract';
import { Badge } from '../../../../components/ui/badge.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { ListState } from '../../../../components/ui/list-state.tsx';
import { SelectField } from '../../../../components/ui/select.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { useSchemaForm } from '../../../../lib/forms.ts';
import { useCreateHostingBackup, useDownloadHostingBackup, useHostingBackups, useRestoreHostingBackup, useSetBackupSchedule, type HostingBackupDownload } from '../../api/backups.ts';
import { errorText, formatBytes, formatDateTime, type HostingSite } from '../format.ts';
import { SiteUnavailable } from '../site-unavailable.tsx';

/** Backups (spec): the panel's backups with restore and download, and the automatic schedule. */
export function BackupsTab({ detail }: { detail: HostingDetail }) {
  if (!detail.site) return <SiteUnavailable detail={detail} />;
  return (
    <div className="space-y-6">
      <BackupList detail={detail} />
      <ScheduleSection detail={detail} site={detail.site} />
    </div>
  );
}

const contentLabel = { web: 'Web', mysql: 'Datenbank' } as const;

function BackupList({ detail }: { detail: HostingDetail }) {
  const backups = useHostingBackups(detail.id);
  const restore = useRestoreHostingBackup(detail.id);
  const download = useDownloadHostingBackup(detail.id);
  const create = useCreateHostingBackup(detail.id);
  const [downloaded, setDownloaded] = useState<HostingBackupDownload | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const restoring = backups.data?.restorePending ?? false;
  const items = backups.data?.items ?? [];

  // Announce the end of a restore this page watched running.
  const watchedRestore = useRef(false);
  useEffect(() => {
    if (restoring) watchedRestore.current = true;
    else if (watchedRestore.current && backups.isSuccess) {
      watchedRestore.current = false;
      toast.success('Die Wiederherstellung ist abgeschlossen.');
    }
  }, [restoring, backups.isSuccess]);

  const startDownload = (itemId: string) => {
    setDownloaded(null);
    setDownloadError(null);
    download.mutate(itemId, {
      onSuccess: (res) => {
        setDownloaded(res);
        if (res.kind === 'url' && res.url) window.open(res.url, '_blank', 'noopener,noreferrer');
        else toast.success('Das Backup liegt jetzt in Ihrem FTP-Zugang.');
      },
      onError: (err) => setDownloadError(errorText(err, 'Das Backup konnte nicht bereitgestellt werden.')),
    });
  };

  return (
    <Card className="min-w-0 p-6" role="region" aria-labelledby="backups-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="backups-heading" className="text-lg font-semibold text-slate-900">Backups</h2>
          <p className="mt-1 text-sm text-slate-600">
            {detail.capabilities.backupNow
              ? 'Backups entstehen nach Ihrem Zeitplan; zusätzlich können Sie jederzeit eines anlegen.'
              : `Backups werden von ${detail.panelName} automatisch nach dem Zeitplan unten erstellt; ein sofortiges Backup bietet das Panel nicht an.`}
          </p>
        </div>
        {detail.capabilities.backupNow && (
          <Button size="sm" loading={create.isPending} disabled={restoring}
            onClick={() => create.mutate(undefined, {
              onSuccess: (res) => toast.success(res.message ?? 'Das Backup wird erstellt.'),
              onError: (err) => toast.error(errorText(err, 'Das Backup konnte nicht gestartet werden.'), { duration: 7000 }),
            })}>
            <DatabaseBackup className="size-4" aria-hidden="true" /> Backup erstellen
          </Button>
        )}
      </div>

      <div aria-live="polite" className="mt-4 space-y-3 empty:hidden">
        {restoring && (
          <div role="status" className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
            <p className="flex items-center gap-2 font-medium">
              <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" />
              Wiederherstellung läuft …
            </p>
            <p className="mt-1">Das Panel spielt das Backup in den nächsten Minuten ein. Bis dahin ist keine weitere Wiederherstellung möglich; diese Seite aktualisiert sich selbst.</p>
            <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-brand-100"><div className="h-1.5 w-1/3 animate-pulse rounded-full bg-brand-600" /></div>
          </div>
        )}
        {downloaded?.kind === 'ftp' && (
          <Alert tone="success">
            Das Backup wurde in Ihren FTP-Zugang kopiert: <code className="break-all font-mono">{downloaded.path ?? 'backup/'}</code>. Laden Sie es mit Ihrem
            FTP-Programm herunter (Zugangsdaten im Tab „Website“) und löschen Sie es danach, damit es nicht Ihren Speicherplatz belegt.
          </Alert>
        )}
        {downloaded?.kind === 'url' && downloaded.url && (
          <Alert tone="success">Der Download wurde in einem neuen Fenster geöffnet. Falls nicht: <a className="font-medium underline" href={downloaded.url} target="_blank" rel="noopener noreferrer">Backup herunterladen</a>.</Alert>
        )}
        {downloadError && <Alert tone="error">{downloadError}</Alert>}
      </div>

      <div className="mt-4">
        <ListState query={backups} isEmpty={items.length === 0} loadingLabel="Backups werden geladen …" errorText="Die Backups konnten nicht geladen werden."
          empty={<div className="flex flex-col items-center gap-2"><Archive className="size-8 text-slate-400" aria-hidden="true" /><p className="font-medium text-slate-900">Noch keine Backups vorhanden</p><p className="text-sm text-slate-600">Das erste Backup entsteht beim nächsten Lauf des Zeitplans.</p></div>}>
          <DataTable caption="Backups des Pakets" rows={items} rowKey={(b) => b.id} columns={[
            { header: 'ID', rowHeader: true, className: 'font-mono text-xs', cell: (b) => b.id },
            { header: 'Datum', className: 'whitespace-nowrap', cell: (b) => formatDateTime(b.date) },
            { header: 'Größe', className: 'whitespace-nowrap', cell: (b) => formatBytes(b.sizeBytes) },
            { header: 'Typ', cell: (b) => (b.automatic ? 'Automatisch' : 'Manuell') },
            { header: 'Inhalt', cell: (b) => <Badge tone={b.content === 'web' ? 'info' : 'neutral'}>{contentLabel[b.content]}</Badge> },
            {
              header: 'Aktionen', actions: true,
              cell: (b) => (
                <div className="flex flex-wrap justify-end gap-1">
                  <ConfirmDialog
                    trigger={<Button size="sm" variant="outline" disabled={restoring} aria-label={`Backup vom ${formatDateTime(b.date)} wiederherstellen`}><RotateCcw className="size-4" aria-hidden="true" /> Wiederherstellen</Button>}
                    title="Backup wiederherstellen?"
                    description={b.content === 'web'
                      ? `Die aktuellen Dateien Ihrer Website werden durch den Stand vom ${formatDateTime(b.date)} ersetzt. Änderungen seitdem gehen verloren.`
                      : `Die Datenbank wird durch den Stand vom ${formatDateTime(b.date)} ersetzt. Änderungen seitdem gehen verloren.`}
                    confirmLabel="Wiederherstellen"
                    onConfirm={() => restore.mutateAsync(b.id).then(
                      (res) => toast.success(res.message ?? 'Die Wiederherstellung wurde gestartet.'),
                      (err: unknown) => { toast.error(errorText(err, 'Die Wiederherstellung konnte nicht gestartet werden.'), { duration: 7000 }); throw err; },
                    )}
                  />
                  <Button size="sm" variant="ghost" onClick={() => startDownload(b.id)} loading={download.isPending && download.variables === b.id}
                    disabled={download.isPending} aria-label={`Backup vom ${formatDateTime(b.date)} herunterladen`}>
                    <Download className="size-4" aria-hidden="true" /> Download
                  </Button>
                </div>
              ),
            },
          ]} />
        </ListState>
      </div>
    </Card>
  );
}

function ScheduleSection({ detail, site }: { detail: HostingDetail; site: HostingSite }) {
  const save = useSetBackupSchedule(detail.id);
  const form = useSchemaForm<BackupScheduleInput>({
    resolver: zodResolver(BackupScheduleInput),
    defaultValues: { frequency: site.backupFrequency, retentionDays: (RETENTION_DAYS as readonly number[]).includes(site.retentionDays) ? (site.retentionDays as BackupScheduleInput['retentionDays']) : 30 },
  });
  const errors = form.formState.errors;
  const frequency = form.watch('frequency');
  const days = Number(form.watch('retentionDays'));
  const copies = frequency === 'none' ? 0 : retentionCopies(frequency, days);
  const covered = frequency === 'none' ? 0 : retentionCoveredDays(frequency, copies);
  const submit = form.handleSubmit(async (input) => {
    try {
      const res = await save.mutateAsync(input);
      toast.success(res.message ?? 'Der Backup-Zeitplan wurde gespeichert.');
      form.reset(form.getValues());
    } catch (err) {
      form.setError('root.server', { message: errorText(err, 'Der Zeitplan konnte nicht gespeichert werden.') });
    }
  });
  return (
    <Card className="p-6" role="region" aria-labelledby="schedule-heading">
      <h2 id="schedule-heading" className="text-lg font-semibold text-slate-900">Backup-Einstellungen</h2>
      <p className="mt-1 text-sm text-slate-600">
        Derzeit: {BACKUP_FREQUENCY_LABEL[site.backupFrequency]}{site.backupFrequency !== 'none' ? `, ${site.backupCopies} ${site.backupCopies === 1 ? 'Kopie' : 'Kopien'} aufbewahrt` : ''}.
      </p>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Automatische Backups" error={errors.frequency?.message} {...form.register('frequency')}>
            {BACKUP_FREQUENCIES.map((f) => <option key={f} value={f}>{BACKUP_FREQUENCY_LABEL[f]}</option>)}
          </SelectField>
          <SelectField label="Aufbewahrungszeitraum" error={errors.retentionDays?.message} {...form.register('retentionDays', { valueAsNumber: true })}>
            {RETENTION_DAYS.map((d) => <option key={d} value={d}>{d} Tage</option>)}
          </SelectField>
        </div>
        <Alert tone="info" aria-live="polite">
          {frequency === 'none'
            ? 'Ohne automatische Backups erstellt das Panel keine neuen Sicherungen. Vorhandene Backups werden nach dem bisherigen Zeitplan aufgeräumt.'
            : `Hinweis: ${detail.panelName} bewahrt keine Tage auf, sondern eine Anzahl Kopien. Bei ${BACKUP_FREQUENCY_LABEL[frequency].toLowerCase()}en Backups und ${days} Tagen werden ${copies} ${copies === 1 ? 'Kopie' : 'Kopien'} aufbewahrt; sie decken ${covered} Tage ab.`}
        </Alert>
        {errors.root?.server?.message && <Alert tone="error">{errors.root.server.message}</Alert>}
        <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>Einstellungen speichern</Button>
      </form>
    </Card>
  );
}
