import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { Database, ExternalLink, KeyRound, Plus, Settings2, Trash2, UserPlus, Users } from 'lucide-react';
import type { HostingDetail } from '@hp/contract';
import { Button, buttonClass } from '../../../../components/ui/button.tsx';
import { Card } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { ListState } from '../../../../components/ui/list-state.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { useDeleteDatabase, useDeleteDatabaseUser, useHostingDatabases, useSetDatabaseUserPassword, type HostingDatabase } from '../../api/databases.ts';
import { CreateDatabaseDialog } from '../create-database-dialog.tsx';
import { CreateDatabaseUserDialog } from '../create-database-user-dialog.tsx';
import { errorText, formatMb } from '../format.ts';
import { HostingPasswordForm } from '../password-form.tsx';
import { SiteUnavailable } from '../site-unavailable.tsx';

/** Applications on the hosting server reach MySQL locally. */
const DATABASE_HOST = 'localhost';

/** Datenbanken (spec): databases with size, tables, phpMyAdmin and "Verwalten"; database users with "Passwort ändern" and "Benutzer erstellen". */
export function DatabasesTab({ detail }: { detail: HostingDetail }) {
  if (!detail.site) return <SiteUnavailable detail={detail} />;
  return <Databases detail={detail} />;
}

/** A value the panel does not report: a dash, with the reason as tooltip and for screen readers. */
function NotReported({ what, panelName }: { what: string; panelName: string }) {
  const reason = `${panelName} meldet ${what} nicht; phpMyAdmin zeigt sie.`;
  return <span title={reason}><span aria-hidden="true">–</span><span className="sr-only">{reason}</span></span>;
}

function Databases({ detail }: { detail: HostingDetail }) {
  const databases = useHostingDatabases(detail.id);
  const removeUser = useDeleteDatabaseUser(detail.id);
  const [creating, setCreating] = useState(false);
  const [creatingUser, setCreatingUser] = useState(false);
  const usersHeading = useRef<HTMLHeadingElement>(null);
  const [managing, setManaging] = useState<string | null>(null);
  const [passwordFor, setPasswordFor] = useState<{ id: string; name: string } | null>(null);
  const data = databases.data;
  const full = data ? data.databases.length >= data.limit : false;
  const usersFull = data ? data.users.length >= data.limit : false;
  const managed = data?.databases.find((d) => d.id === managing);

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
                { header: 'Größe', className: 'whitespace-nowrap', cell: (d) => (d.sizeMb === null ? <NotReported what="die Größe" panelName={detail.panelName} /> : formatMb(d.sizeMb)) },
                { header: 'Tabellen', className: 'whitespace-nowrap', cell: (d) => (d.tables === null ? <NotReported what="die Anzahl der Tabellen" panelName={detail.panelName} /> : d.tables.toLocaleString('de-DE')) },
                {
                  header: 'phpMyAdmin',
                  cell: (d) => (
                    <a href={data.phpMyAdminUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')} aria-label={`${d.name} in phpMyAdmin öffnen (neues Fenster)`}>
                      <ExternalLink className="size-4" aria-hidden="true" /> Öffnen
                    </a>
                  ),
                },
                {
                  header: 'Verwalten', actions: true,
                  cell: (d) => (
                    <Button size="sm" variant="outline" onClick={() => setManaging(d.id)} aria-label={`Datenbank ${d.name} verwalten`}>
                      <Settings2 className="size-4" aria-hidden="true" /> Verwalten
                    </Button>
                  ),
                },
              ]} />
            )}
          </ListState>
        </div>
      </Card>

      {data && (
        <Card className="min-w-0 p-6" role="region" aria-labelledby="dbuser-heading">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 id="dbuser-heading" ref={usersHeading} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-slate-900 focus:outline-none"><Users className="size-5" aria-hidden="true" /> Datenbankbenutzer</h2>
              <p className="mt-1 text-sm text-slate-600">
                Mit diesen Benutzern verbinden sich Ihre Anwendungen (Host: {DATABASE_HOST}). {data.users.length} von {data.limit} Benutzern angelegt{usersFull ? ' – Ihr Tarif enthält keine weiteren Datenbankbenutzer.' : '.'}
              </p>
            </div>
            {detail.access === 'owner' && <Button size="sm" variant="outline" onClick={() => setCreatingUser(true)} disabled={usersFull}><UserPlus className="size-4" aria-hidden="true" /> Benutzer erstellen</Button>}
          </div>
          <div className="mt-4">
            {data.users.length === 0 ? <p className="text-sm text-slate-600">Noch keine Datenbankbenutzer.</p> : (
              <DataTable caption="Datenbankbenutzer" rows={data.users} rowKey={(u) => u.id} columns={[
                { header: 'Benutzer', rowHeader: true, cell: (u) => <code className="break-all font-mono text-sm">{u.name}</code> },
                { header: 'Datenbanken', cell: (u) => data.databases.filter((d) => d.userId === u.id).map((d) => d.name).join(', ') || '–' },
                {
                  header: 'Aktionen', actions: true,
                  cell: (u) => (
                    <div className="flex flex-wrap justify-end gap-1">
                      {detail.access === 'owner' && <Button size="sm" variant="outline" onClick={() => setPasswordFor(u)} aria-label={`Passwort von ${u.name} ändern`}><KeyRound className="size-4" aria-hidden="true" /> Passwort ändern</Button>}
                      <ConfirmDialog
                        trigger={<Button size="sm" variant="ghost" aria-label={`Datenbankbenutzer ${u.name} löschen`}><Trash2 className="size-4 text-red-700" aria-hidden="true" /> Löschen</Button>}
                        title="Datenbankbenutzer löschen?"
                        description={`Der Benutzer ${u.name} wird gelöscht; Anwendungen können sich mit ihm nicht mehr anmelden. Ein Benutzer, dem noch eine Datenbank gehört, kann nicht gelöscht werden.`}
                        onConfirm={() => removeUser.mutateAsync(u.id).then(
                          (res) => toast.success(res.message ?? `Der Datenbankbenutzer ${u.name} wurde gelöscht.`),
                          (err: unknown) => { toast.error(errorText(err, 'Der Benutzer konnte nicht gelöscht werden.'), { duration: 9000 }); throw err; },
                        )}
                      />
                    </div>
                  ),
                },
              ]} />
            )}
          </div>
        </Card>
      )}

      {creating && data && <CreateDatabaseDialog hostingId={detail.id} prefix={data.prefix} users={data.users} onClose={() => setCreating(false)} />}
      {creatingUser && data && <CreateDatabaseUserDialog hostingId={detail.id} prefix={data.prefix} onClose={(created) => {
        setCreatingUser(false);
        // The button may be disabled now (limit reached): keyboard focus goes to the list that shows the new user,
        // after the dialog has handed focus back to its trigger.
        if (created) setTimeout(() => usersHeading.current?.focus(), 50);
      }} />}
      {managed && data && (
        <ManageDatabaseDialog detail={detail} database={managed} phpMyAdminUrl={data.phpMyAdminUrl} onClose={() => setManaging(null)}
          onChangePassword={(user) => { setManaging(null); setPasswordFor(user); }} />
      )}
      {passwordFor && <DatabaseUserPasswordDialog hostingId={detail.id} user={passwordFor} onClose={() => setPasswordFor(null)} />}
    </div>
  );
}

/** "Verwalten" of one database: its connection details, phpMyAdmin, its user's password, and deleting it. */
function ManageDatabaseDialog({ detail, database: d, phpMyAdminUrl, onClose, onChangePassword }: {
  detail: HostingDetail;
  database: HostingDatabase;
  phpMyAdminUrl: string;
  onClose: () => void;
  onChangePassword: (user: { id: string; name: string }) => void;
}) {
  const remove = useDeleteDatabase(detail.id);
  const ownsUser = d.user !== null && d.user === d.name;
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`Datenbank ${d.name}`} description="Zugangsdaten für Ihre Anwendung und Verwaltung der Datenbank.">
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div className="min-w-0"><dt className="text-slate-600">Datenbankname</dt><dd className="break-all font-mono text-slate-900">{d.name}</dd></div>
        <div className="min-w-0"><dt className="text-slate-600">Benutzer</dt><dd className="break-all font-mono text-slate-900">{d.user ?? '– (kein Benutzer zugeordnet)'}</dd></div>
        <div className="min-w-0"><dt className="text-slate-600">Host</dt><dd className="font-mono text-slate-900">{DATABASE_HOST}</dd></div>
        <div className="min-w-0"><dt className="text-slate-600">Größe</dt><dd className="text-slate-900">{d.sizeMb === null ? <NotReported what="die Größe" panelName={detail.panelName} /> : formatMb(d.sizeMb)}</dd></div>
        <div className="min-w-0"><dt className="text-slate-600">Tabellen</dt><dd className="text-slate-900">{d.tables === null ? <NotReported what="die Anzahl der Tabellen" panelName={detail.panelName} /> : d.tables.toLocaleString('de-DE')}</dd></div>
      </dl>
      <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <a href={phpMyAdminUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')}>
          <ExternalLink className="size-4" aria-hidden="true" /> In phpMyAdmin öffnen<span className="sr-only"> (neues Fenster)</span>
        </a>
        {d.userId && d.user && (
          <Button size="sm" variant="outline" onClick={() => onChangePassword({ id: d.userId!, name: d.user! })}>
            <KeyRound className="size-4" aria-hidden="true" /> Passwort von {d.user} ändern
          </Button>
        )}
        <ConfirmDialog
          trigger={<Button size="sm" variant="danger"><Trash2 className="size-4" aria-hidden="true" /> Datenbank löschen</Button>}
          title="Datenbank löschen?"
          description={`Die Datenbank ${d.name} und alle ihre Tabellen werden endgültig gelöscht. Das kann nicht rückgängig gemacht werden.${ownsUser ? ` Der gleichnamige Benutzer ${d.user} wird mitgelöscht, wenn ihm keine andere Datenbank gehört.` : ''}${detail.site?.app ? ' Ist es die Datenbank Ihrer WordPress- oder Joomla-Installation, funktioniert die Website danach nicht mehr und die Anwendung wird aus dem Portal entfernt.' : ''}`}
          onConfirm={() => remove.mutateAsync(d.id).then(
            (res) => { toast.success(res?.message ?? `Die Datenbank ${d.name} wurde gelöscht.`); onClose(); },
            (err: unknown) => { toast.error(errorText(err, 'Die Datenbank konnte nicht gelöscht werden.'), { duration: 7000 }); throw err; },
          )}
        />
      </div>
    </Modal>
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
