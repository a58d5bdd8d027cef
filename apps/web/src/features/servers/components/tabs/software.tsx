import { useEffect, useMemo, useRef, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Download, PackageCheck, Trash2 } from 'lucide-react';
import {
  formatSizeMb, MongoCredentials, MysqlCredentials, SOFTWARE_CATEGORIES, softwareCategoryLabels, softwareMessages,
  type ServerDetail, type SoftwareInstallInput, type SoftwareItem,
} from '@hp/contract';
import { Badge } from '../../../../components/ui/badge.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { SearchField } from '../../../../components/ui/search-field.tsx';
import { Select } from '../../../../components/ui/select.tsx';
import { ApiRequestError } from '../../../../lib/api-client.ts';
import { useSoftware, useSoftwareAction } from '../../api/software.ts';
import { useSchemaForm } from '../../../../lib/forms.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.status !== 0 && err.status < 500 ? err.message : fallback);

/** Installation tab (spec §2): catalogue with search, category filter and install/uninstall toggle. */
export function SoftwareTab({ detail }: { detail: ServerDetail }) {
  const software = useSoftware(detail.id);
  const action = useSoftwareAction(detail.id);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>('all');
  const [credentialsFor, setCredentialsFor] = useState<SoftwareItem | null>(null);

  // Toast once when the task we started (or saw running) ends.
  const watched = useRef<string | null>(null);
  const task = software.data?.task ?? null;
  useEffect(() => {
    if (!task) return;
    if (task.status === 'running') {
      watched.current = task.id;
      return;
    }
    if (watched.current !== task.id) return;
    watched.current = null;
    const name = software.data?.apps.find((a) => a.id === task.appId)?.name ?? task.appId;
    if (task.status === 'ok') toast.success(task.kind === 'install' ? softwareMessages.installed(name) : softwareMessages.uninstalled(name), { duration: 7000 });
    else toast.error(task.error ?? softwareMessages.failed, { duration: 7000 });
  }, [task, software.data?.apps]);

  const apps = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (software.data?.apps ?? []).filter((a) =>
      (category === 'all' || a.category === category) && (!q || a.name.toLowerCase().includes(q) || a.description.toLowerCase().includes(q)));
  }, [software.data?.apps, search, category]);

  const run = async (app: SoftwareItem, kind: 'install' | 'uninstall', input?: SoftwareInstallInput) => {
    try {
      const res = await action.mutateAsync({ appId: app.id, action: kind, input });
      watched.current = res.taskId;
      toast.info(res.message);
    } catch (err) {
      toast.error(errorText(err, kind === 'install' ? softwareMessages.installFailed : softwareMessages.failed), { duration: 7000 });
      throw err;
    }
  };

  if (software.isPending) return <Spinner label="Lade Software …" />;
  if (software.isError) {
    return <Alert tone="error">{errorText(software.error, softwareMessages.failed)} <button type="button" className="underline" onClick={() => software.refetch()}>Erneut versuchen</button></Alert>;
  }

  const running = task?.status === 'running' ? task : null;
  const serverStatus = software.data.serverStatus;
  const blocked = serverStatus !== 'online' || !!running || action.isPending;

  return (
    <section aria-labelledby="software-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="software-heading" className="text-lg font-semibold text-slate-900">Software installieren</h2>
          <p className="mt-1 text-sm text-slate-600">Programme aus unserem Katalog mit einem Klick installieren oder entfernen.</p>
        </div>
        <div className="flex w-full flex-wrap gap-3 sm:w-auto">
          <SearchField label="Software suchen" placeholder="Software suchen …" value={search} onChange={(e) => setSearch(e.target.value)} className="min-w-0 flex-1 sm:w-64" />
          <label htmlFor="software-category" className="sr-only">Kategorie</label>
          <Select id="software-category" value={category} onChange={(e) => setCategory(e.target.value)} className="w-44">
            <option value="all">Alle Kategorien</option>
            {SOFTWARE_CATEGORIES.map((c) => <option key={c} value={c}>{softwareCategoryLabels[c]}</option>)}
          </Select>
        </div>
      </div>

      {serverStatus === 'maintenance' ? (
        <Alert tone="warning">Server ist im Wartungsmodus. Verwaltung ist nicht verfügbar.</Alert>
      ) : serverStatus !== 'online' && !running ? (
        <Alert tone="info">{softwareMessages.needsOnline}</Alert>
      ) : null}
      {software.data.source === 'history' && <p className="text-sm text-slate-600">Der Server ist gerade nicht erreichbar; angezeigt wird der zuletzt bekannte Stand.</p>}

      {apps.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600" role="status">{softwareMessages.empty}</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {apps.map((app) => {
            const active = running?.appId === app.id ? running : null;
            const installed = app.status === 'installed';
            return (
              <li key={app.id}>
                <Card className="flex h-full flex-col p-5">
                  <div className="flex items-start justify-between gap-3">
                    <div>
                      <h3 className="font-semibold text-slate-900">{app.name}</h3>
                      <p className="text-xs text-slate-600">{softwareCategoryLabels[app.category]}</p>
                    </div>
                    {installed ? <Badge tone="success"><PackageCheck className="size-3.5" aria-hidden="true" /> Installiert</Badge> : <Badge tone="neutral">Nicht installiert</Badge>}
                  </div>
                  <p className="mt-3 flex-1 text-sm text-slate-700">{app.description}</p>
                  <dl className="mt-4 flex gap-6 text-sm">
                    <div><dt className="text-slate-600">Version</dt><dd className="font-medium text-slate-900">{app.version}</dd></div>
                    <div><dt className="text-slate-600">Größe</dt><dd className="font-medium text-slate-900">{formatSizeMb(app.sizeMb)}</dd></div>
                  </dl>
                  {active ? (
                    <div className="mt-4" role="status">
                      <div className="flex justify-between text-sm text-slate-700">
                        <span>{active.kind === 'install' ? softwareMessages.installing(app.name) : softwareMessages.uninstalling(app.name)}</span>
                        <span>{active.progress} %</span>
                      </div>
                      <div className="mt-1 h-2 rounded-full bg-slate-200" role="progressbar" aria-label={`Fortschritt ${app.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={active.progress}>
                        <div className="h-2 rounded-full bg-brand-600 transition-[width]" style={{ width: `${active.progress}%` }} />
                      </div>
                    </div>
                  ) : installed ? (
                    <ConfirmDialog
                      trigger={<Button variant="outline" size="sm" className="mt-4" disabled={blocked}><Trash2 className="size-4" aria-hidden="true" /> Deinstallieren</Button>}
                      title={`${app.name} deinstallieren?`}
                      description={`${app.name} wird vom Server entfernt. Dienste, die ${app.name} benötigen, funktionieren danach nicht mehr.`}
                      confirmLabel="Deinstallieren"
                      onConfirm={() => run(app, 'uninstall')}
                    />
                  ) : (
                    <Button size="sm" className="mt-4" disabled={blocked} loading={action.isPending && action.variables?.appId === app.id}
                      onClick={() => (app.credentials ? setCredentialsFor(app) : void run(app, 'install').catch(() => {}))}>
                      <Download className="size-4" aria-hidden="true" /> Installieren
                    </Button>
                  )}
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      {credentialsFor && (
        <CredentialsDialog app={credentialsFor} onClose={() => setCredentialsFor(null)} onSubmit={(input) => run(credentialsFor, 'install', input).then(() => setCredentialsFor(null))} />
      )}
    </section>
  );
}

/** §5: MySQL asks for a password, MongoDB for a user name and a password; both are not stored. */
function CredentialsDialog({ app, onClose, onSubmit }: { app: SoftwareItem; onClose: () => void; onSubmit: (input: SoftwareInstallInput) => Promise<void> }) {
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`${app.name} installieren`} description="Legen Sie die Zugangsdaten für die Datenbank fest.">
      <Alert tone="warning" className="mb-4">{softwareMessages.credentialsNotStored}</Alert>
      {app.credentials === 'mongodb' ? <MongoForm onSubmit={onSubmit} onCancel={onClose} /> : <MysqlForm onSubmit={onSubmit} onCancel={onClose} />}
    </Modal>
  );
}

function MysqlForm({ onSubmit, onCancel }: { onSubmit: (input: SoftwareInstallInput) => Promise<void>; onCancel: () => void }) {
  const form = useSchemaForm<MysqlCredentials>({ resolver: zodResolver(MysqlCredentials), defaultValues: { password: '' } });
  const submit = form.handleSubmit((v) => onSubmit({ mysql: v }).catch(() => {}));
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Passwort für den MySQL-Benutzer root" type="password" autoComplete="new-password" error={form.formState.errors.password?.message} {...form.register('password')} />
      <DialogButtons pending={form.formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function MongoForm({ onSubmit, onCancel }: { onSubmit: (input: SoftwareInstallInput) => Promise<void>; onCancel: () => void }) {
  const form = useSchemaForm<MongoCredentials>({ resolver: zodResolver(MongoCredentials), defaultValues: { username: '', password: '' } });
  const submit = form.handleSubmit((v) => onSubmit({ mongodb: v }).catch(() => {}));
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Benutzername" autoComplete="off" error={form.formState.errors.username?.message} {...form.register('username')} />
      <Field label="Passwort" type="password" autoComplete="new-password" error={form.formState.errors.password?.message} {...form.register('password')} />
      <DialogButtons pending={form.formState.isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function DialogButtons({ pending, onCancel }: { pending: boolean; onCancel: () => void }) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="outline" onClick={onCancel} disabled={pending}>Abbrechen</Button>
      <Button type="submit" loading={pending}>Installieren</Button>
    </div>
  );
}
