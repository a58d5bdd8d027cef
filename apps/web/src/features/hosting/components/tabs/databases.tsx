import { useState } from 'react';
import { toast } from 'sonner';
import { Database, ExternalLink, KeyRound, Plus, Trash2, Users } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button, buttonClass } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { ListState } from '../../../../components/ui/list-state.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { useDeleteDatabase, useHostingDatabases, useSetDatabaseUserPassword } from '../../api/databases.ts';
import { CreateDatabaseDialog } from '../create-database-dialog.tsx';
import { errorText, formatMb } from '../format.ts';
import { HostingPasswordForm } from '../password-form.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';

/** Datenbanken (spec): MySQL databases with phpMyAdmin, create and delete, and the database users' passwords. */
export function DatabasesTab({ detail }: { detail: HostingDetail }) {
  if (!detail.site) return <SiteUnavailable detail={detail} />;
  return <Databases detail={detail} />;
}

function Databases({ detail }: { detail: HostingDetail }) {
  const databases = useHostingDatabases(detail.id);
  const remove = useDeleteDatabase(detail.id);
  const [creating, setCreating] = useState(false);
  const [passwordFor, setPasswordFor] = useState<{ id: string; name: string } | null>(null);
  const data = databases.data;
  const full = data ? data.databases.length >= data.limit : false;

  return (
    <div className="space-y-6">
      <Card className="min-w-0 p-6" role="region" aria-labelledby="db-heading">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="db-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Database className="size-5" aria-hidden="true" /> MySQL-Datenbanken</h2>
            {data && <p className="mt-1 text-sm text-slate-600">{data.databases.length} von {data.limit} Datenbanken genutzt{full ? ' – Ihr Tarif enthält keine weiteren Datenbanken.' : '.'}</p>}
          </div>
          <div className="flex flex-wrap gap-2">
            {data && (
              <a href={data.phpMyAdminUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
                <ExternalLink className="size-4" aria-hidden="true" /> phpMyAdmin<span className="sr-only"> öffnen (neues Fenster)</span>
              </a>
            )}
            <Button size="sm" onClick={() => setCreating(true)} disabled={!data || full}><Plus className="size-4" aria-hidden="true" /> Datenbank erstellen</Button>
          </div>
        </div>
        <div className="mt-4">
          <ListState query={databases} isEmpty={!data || data.databases.length === 0} loadingLabel="Datenbanken werden geladen …"
            errorText="Die Datenbanken konnten nicht geladen werden." empty="Noch keine Datenbank angelegt. Mit „Datenbank erstellen“ legen Sie eine Datenbank und ihren Benutzer an.">
            {data && (
              <DataTable caption="MySQL-Datenbanken" rows={data.databases} rowKey={(d) => d.id} columns={[
                { header: 'Name', rowHeader: true, cell: (d) => <code className="break-all font-mono text-sm">{d.name}</code> },
                { header: 'Benutzer', cell: (d) => (d.user ? <code className="break-all font-mono text-sm">{d.user}</code> : '–') },
                { header: 'Größe', className: 'whitespace-nowrap', cell: (d) => (d.sizeMb === null ? '–' : formatMb(d.sizeMb)) },
                {
                  header: 'Aktionen', actions: true,
                  cell: (d) => (
                    <div className="flex flex-wrap justify-end gap-1">
                      <a href={data.phpMyAdminUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')} aria-label={`${d.name} in phpMyAdmin öffnen (neues Fenster)`}>
                        <ExternalLink className="size-4" aria-hidden="true" /> phpMyAdmin
                      </a>
                      <ConfirmDialog
                        trigger={<Button size="sm" variant="ghost" aria-label={`Datenbank ${d.name} löschen`}><Trash2 className="size-4 text-red-700" aria-hidden="true" /> Löschen</Button>}
                        title="Datenbank löschen?"
                        description={`Die Datenbank ${d.name} und alle ihre Tabellen werden endgültig gelöscht. Das kann nicht rückgängig gemacht werden.`}
                        onConfirm={() => remove.mutateAsync(d.id).then(
                          (res) => toast.success(res?.message ?? `Die Datenbank ${d.name} wurde gelöscht.`),
                          (err: unknown) => { toast.error(errorText(err, 'Die Datenbank konnte nicht gelöscht werden.'), { duration: 7000 }); throw err; },
                        )}
                      />
                    </div>
                  ),
                },
              ]} />
            )}
          </ListState>
        </div>
      </Card>

      {data && (
        <Card className="min-w-0 p-6" role="region" aria-labelledby="dbuser-heading">
          <h2 id="dbuser-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Users className="size-5" aria-hidden="true" /> Datenbankbenutzer</h2>
          <p className="mt-1 text-sm text-slate-600">Zu jeder Datenbank gehört ein Benutzer mit demselben Namen. Mit ihm verbinden sich Ihre Anwendungen (Host: localhost).</p>
          <div className="mt-4">
            {data.users.length === 0 ? <p className="text-sm text-slate-600">Noch keine Datenbankbenutzer.</p> : (
              <DataTable caption="Datenbankbenutzer" rows={data.users} rowKey={(u) => u.id} columns={[
                { header: 'Benutzer', rowHeader: true, cell: (u) => <code className="break-all font-mono text-sm">{u.name}</code> },
                { header: 'Datenbanken', cell: (u) => data.databases.filter((d) => d.userId === u.id).map((d) => d.name).join(', ') || '–' },
                {
                  header: 'Aktionen', actions: true,
                  cell: (u) => <Button size="sm" variant="outline" onClick={() => setPasswordFor(u)} aria-label={`Passwort von ${u.name} ändern`}><KeyRound className="size-4" aria-hidden="true" /> Passwort ändern</Button>,
                },
              ]} />
            )}
          </div>
        </Card>
      )}

      {creating && data && <CreateDatabaseDialog hostingId={detail.id} prefix={data.prefix} onClose={() => setCreating(false)} />}
      {passwordFor && <DatabaseUserPasswordDialog hostingId={detail.id} user={passwordFor} onClose={() => setPasswordFor(null)} />}
    </div>
  );
}

export function DatabaseUserPasswordDialog({ hostingId, user, onClose }: { hostingId: string; user: { id: string; name: string }; onClose: () => void }) {
  const setPassword = useSetDatabaseUserPassword(hostingId);
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title="Passwort ändern" description={`Neues Passwort für den Datenbankbenutzer ${user.name}. Passen Sie danach die Zugangsdaten in Ihrer Anwendung an (z. B. wp-config.php).`}>
      <HostingPasswordForm label="Neues Passwort" submitLabel="Passwort ändern" successFallback={`Das Passwort von ${user.name} wurde geändert.`}
        onSubmit={(input) => setPassword.mutateAsync({ userId: user.id, input })} onDone={onClose} onCancel={onClose} />
    </Modal>
  );
}
