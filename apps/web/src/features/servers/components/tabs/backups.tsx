import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Archive, DatabaseBackup, RotateCcw, Trash2 } from 'lucide-react';
import { backupMessages, type BackupTask, type ServerDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { ApiRequestError } from '../../../../lib/api-client.ts';
import { useBackups, useCreateBackup, useDeleteBackup, useRestoreBackup } from '../../api/backups.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);
const formatDate = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
/** Spec §9: MB below 1024, GB from 1024, TB from 1048576 (MB). */
function formatSize(bytes: number) {
  const mb = bytes / 1048576;
  if (mb >= 1048576) return `${(mb / 1048576).toLocaleString('de-DE', { maximumFractionDigits: 2 })} TB`;
  if (mb >= 1024) return `${(mb / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} GB`;
  return `${Math.max(0, Math.round(mb)).toLocaleString('de-DE')} MB`;
}

export function BackupsTab({ detail }: { detail: ServerDetail }) {
  const backups = useBackups(detail.id);
  const create = useCreateBackup(detail.id);
  const restore = useRestoreBackup(detail.id);
  const remove = useDeleteBackup(detail.id);
  const client = useQueryClient();
  const task = backups.data?.task ?? null;
  const running = task?.status === 'running';

  // Announce the end of a backup/restore this page watched running (once per task).
  const watched = useRef<string | null>(null);
  useEffect(() => {
    if (!task) return;
    if (task.status === 'running') {
      watched.current = task.id;
      return;
    }
    if (watched.current !== task.id) return;
    watched.current = null;
    announceEnd(task);
    void client.invalidateQueries({ queryKey: ['servers', detail.id], exact: true });
  }, [task, client, detail.id]);

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (res) => {
        if ('task' in res) watched.current = res.task.id;
        toast.info(backupMessages.creating);
      },
      onError: (err) => toast.error(errorText(err, backupMessages.startFailed), { duration: 7000 }),
    });

  const limitReached = (backups.data?.backups.length ?? 0) >= (backups.data?.max ?? 1);

  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Backups</h2>
          <p className="mt-1 text-sm text-slate-600">Max Backup: {backups.data?.max ?? 1}</p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <Button
            onClick={() => (limitReached ? toast.error(backupMessages.maxReached, { duration: 7000 }) : onCreate())}
            loading={create.isPending}
            disabled={running || backups.isPending}
            aria-disabled={limitReached || undefined}
            aria-describedby={limitReached ? 'backup-limit-reached' : undefined}
          >
            <DatabaseBackup className="size-4" aria-hidden="true" /> Backup erstellen
          </Button>
          {/* The reason next to the button, not only after a click (issue 21). */}
          {limitReached && <p id="backup-limit-reached" className="text-sm text-slate-600">{backupMessages.maxReached}</p>}
        </div>
      </div>

      {running && task && (
        <div className="mt-5" role="status" aria-live="polite">
          <div className="flex justify-between text-sm text-slate-700">
            <span>{task.kind === 'backup' ? backupMessages.creating : backupMessages.restoring}</span>
            <span>{task.progress} %</span>
          </div>
          <div className="mt-1 h-2 rounded-full bg-slate-200" role="progressbar" aria-label={task.kind === 'backup' ? 'Fortschritt des Backups' : 'Fortschritt der Wiederherstellung'} aria-valuemin={0} aria-valuemax={100} aria-valuenow={task.progress}>
            <div className="h-2 rounded-full bg-brand-600 transition-[width]" style={{ width: `${task.progress}%` }} />
          </div>
        </div>
      )}
      {task?.status === 'failed' && task.error && <Alert tone="error" className="mt-5">{task.error}</Alert>}

      <div className="mt-5">
        {backups.isPending ? <Spinner label="Backups werden geladen …" /> : backups.isError ? (
          <Alert tone="error">{backups.error.message} <button type="button" className="underline" onClick={() => backups.refetch()}>Erneut versuchen</button></Alert>
        ) : backups.data.backups.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 p-8 text-center">
            <Archive className="size-8 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">Noch keine Backups vorhanden</p>
            <p className="text-sm text-slate-600">Erstellen Sie ein Backup, um den aktuellen Stand Ihres Servers zu sichern.</p>
          </div>
        ) : (
          <DataTable
            caption="Backups des Servers"
            rows={backups.data.backups}
            rowKey={(b) => b.id}
            columns={[
              { header: 'Dateiname', rowHeader: true, className: 'font-mono text-xs font-medium', cell: (b) => <span className="block max-w-[13rem] truncate" title={b.filename}>{b.filename}</span> },
              { header: 'Datum', className: 'whitespace-nowrap', cell: (b) => formatDate(b.date) },
              { header: 'Typ', cell: (b) => b.type },
              { header: 'Größe', className: 'whitespace-nowrap', cell: (b) => formatSize(b.size) },
              {
                header: 'Aktionen',
                actions: true,
                className: 'whitespace-nowrap',
                cell: (b) => (
                  <div className="flex flex-wrap justify-end gap-1 whitespace-nowrap">
                    <ConfirmDialog
                      trigger={<Button size="sm" variant="outline" disabled={running} aria-label={`Backup vom ${formatDate(b.date)} wiederherstellen`}><RotateCcw className="size-4" aria-hidden="true" /> Wiederherstellen</Button>}
                      title="Backup wiederherstellen?"
                      description={`Der aktuelle Stand des Servers wird mit dem Backup vom ${formatDate(b.date)} überschrieben. Alle Änderungen seitdem gehen verloren. Der Server ist während der Wiederherstellung nicht erreichbar.`}
                      confirmLabel="Wiederherstellen"
                      onConfirm={() => restore.mutateAsync(b.id).then(
                        (res) => {
                          if ('task' in res) watched.current = res.task.id;
                          toast.info(backupMessages.restoring);
                        },
                        (err: unknown) => {
                          toast.error(errorText(err, 'Es ist ein Fehler aufgetreten'), { duration: 7000 });
                          throw err;
                        },
                      )}
                    />
                    <ConfirmDialog
                      trigger={<Button size="sm" variant="ghost" disabled={running} aria-label={`Backup vom ${formatDate(b.date)} löschen`}><Trash2 className="size-4 text-red-700" aria-hidden="true" /> Löschen</Button>}
                      title="Backup löschen?"
                      description={`Das Backup vom ${formatDate(b.date)} wird endgültig gelöscht.`}
                      onConfirm={() => remove.mutateAsync(b.id).then(
                        () => toast.success(backupMessages.deleted),
                        (err: unknown) => {
                          toast.error(errorText(err, 'Es ist ein Fehler aufgetreten'), { duration: 7000 });
                          throw err;
                        },
                      )}
                    />
                  </div>
                ),
              },
            ]}
          />
        )}
      </div>
    </Card>
  );
}

function announceEnd(task: BackupTask) {
  if (task.kind === 'backup') {
    if (task.status === 'ok') toast.success(backupMessages.done);
    else toast.error(task.error ?? backupMessages.createError, { duration: 7000 });
  } else if (task.status === 'ok') {
    toast.success(backupMessages.restored);
  } else {
    toast.error(task.error ?? backupMessages.restoreFailed, { duration: 7000 });
  }
}
