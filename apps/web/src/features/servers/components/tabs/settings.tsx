import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { KeyRound, RefreshCw } from 'lucide-react';
import { isLinuxOs, RootPasswordInput, serverPasswordName, rootPasswordRules, serverSettingsMessages, SshKeysInput, type ServerDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../../components/ui/card.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { TextareaField } from '../../../../components/ui/textarea.tsx';
import { ApiRequestError } from '../../../../lib/api-client.ts';
import { PasswordChecklist } from '../../../../components/forms/password-checklist.tsx';
import { AccessSection, type AccessLabels } from '../../../../components/sharing/access-section.tsx';
import { useServerStatus } from '../../api/servers.ts';
import { ReinstallDialog } from '../reinstall-dialog.tsx';
import { useChangeRootPassword, useSaveSshKeys, useServerSettings, useShareServer, useUnshareServer } from '../../api/settings.ts';
import { useSchemaForm } from '../../../../lib/forms.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.status > 0 && err.status < 500 ? err.message : fallback);
const formatDate = (iso: string) => new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' });

/**
 * Einstellungen tab (spec §2): access management, SSH keys, root password and the reinstall. Windows
 * servers have an Administrator password and no SSH keys (the API refuses them there).
 */
export function SettingsTab({ detail }: { detail: ServerDetail }) {
  const settings = useServerSettings(detail.id);
  if (settings.isPending) return <Spinner label="Lade Einstellungen …" />;
  if (settings.isError) {
    return <Alert tone="error">{errorText(settings.error, 'Die Einstellungen konnten nicht geladen werden.')} <button type="button" className="underline" onClick={() => settings.refetch()}>Erneut versuchen</button></Alert>;
  }
  const data = settings.data;
  const linux = isLinuxOs(detail.os);
  return (
    <div className="space-y-6">
      <ServerAccessSection serverId={detail.id} sharedWith={data.sharedWith} />
      {linux && <SshKeysSection key={data.sshKeys} serverId={detail.id} sshKeys={data.sshKeys} />}
      <RootPasswordSection serverId={detail.id} setAt={data.rootPasswordSetAt} os={detail.os} />
      {data.access === 'owner' && <ReinstallSection detail={detail} linux={data.linux} />}
    </div>
  );
}

const accessLabels: AccessLabels = {
  intro: 'Geteilte Benutzer können den Server bedienen, sehen aber keine Abrechnungsdaten.',
  sharedNote: serverSettingsMessages.sharedNote,
  empty: 'Der Server ist mit niemandem geteilt.',
  addDescription: 'Geben Sie den Benutzernamen eines Kundenkontos ein, das den Server mitverwalten soll.',
  removeDescription: (username) => `${username} kann den Server danach nicht mehr sehen oder bedienen.`,
  shared: serverSettingsMessages.shared,
  unshared: serverSettingsMessages.unshared,
};

/** `sharedWith` is null for a user the server was shared with: only the owner manages access. */
function ServerAccessSection({ serverId, sharedWith }: { serverId: string; sharedWith: { username: string; since: string }[] | null }) {
  const share = useShareServer(serverId);
  const unshare = useUnshareServer(serverId);
  return (
    <AccessSection headingId="access-heading" labels={accessLabels} canManage={sharedWith !== null} shares={sharedWith ?? []}
      share={share} unshare={unshare} errorText={errorText} />
  );
}

function SshKeysSection({ serverId, sshKeys }: { serverId: string; sshKeys: string }) {
  const save = useSaveSshKeys(serverId);
  const form = useSchemaForm<SshKeysInput>({ resolver: zodResolver(SshKeysInput), defaultValues: { keys: sshKeys } });
  const submit = form.handleSubmit(async ({ keys }) => {
    try {
      const res = await save.mutateAsync(keys);
      toast.success(res.message);
    } catch (err) {
      form.setError('keys', { message: errorText(err, 'Die SSH-Schlüssel konnten nicht gespeichert werden.') });
    }
  });
  return (
    <Card className="p-6" aria-labelledby="ssh-heading" role="region">
      <h2 id="ssh-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><KeyRound className="size-5" aria-hidden="true" /> SSH-Schlüssel</h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <TextareaField label="Öffentliche SSH-Schlüssel (einer pro Zeile)" rows={5} spellCheck={false} className="[&_textarea]:font-mono"
          placeholder="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA… benutzer@rechner"
          hint="Erlaubt sind ssh-ed25519, ssh-rsa und ecdsa-sha2-*; höchstens 20 Schlüssel."
          error={form.formState.errors.keys?.message} {...form.register('keys')} />
        <Button type="submit" loading={save.isPending}>SSH-Schlüssel speichern</Button>
      </form>
    </Card>
  );
}

function RootPasswordSection({ serverId, setAt, os }: { serverId: string; setAt: string | null; os: string }) {
  const name = serverPasswordName(os);
  const change = useChangeRootPassword(serverId);
  const form = useSchemaForm<RootPasswordInput>({ resolver: zodResolver(RootPasswordInput), defaultValues: { password: '', confirmPassword: '' } });
  const password = form.watch('password');
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    try {
      const res = await change.mutateAsync(values);
      toast.success(res.message);
      form.reset();
    } catch (err) {
      toast.error(errorText(err, isLinuxOs(os) ? serverSettingsMessages.rootPasswordFailed : serverSettingsMessages.adminPasswordFailed), { duration: 7000 });
    }
  });
  return (
    <Card className="p-6" aria-labelledby="rootpw-heading" role="region">
      <h2 id="rootpw-heading" className="text-lg font-semibold text-slate-900">{name} ändern</h2>
      <p className="mt-1 text-sm text-slate-600">
        Das Passwort wird direkt auf dem Server gesetzt und bei uns nicht gespeichert.{setAt ? ` Zuletzt geändert am ${formatDate(setAt)}.` : ''}
      </p>
      <form onSubmit={submit} noValidate className="mt-4 grid gap-4 sm:max-w-md">
        <Field label={`Neues ${name}`} type="password" autoComplete="new-password" error={errors.password?.message}
          hint={<PasswordChecklist password={password} rules={rootPasswordRules} />} {...form.register('password')} />
        <Field label="Passwort bestätigen" type="password" autoComplete="new-password" error={errors.confirmPassword?.message} {...form.register('confirmPassword')} />
        <div><Button type="submit" loading={change.isPending}>Passwort ändern</Button></div>
      </form>
    </Card>
  );
}

function ReinstallSection({ detail, linux }: { detail: ServerDetail; linux: boolean }) {
  const [open, setOpen] = useState(false);
  // The page polls the status (shared query) and reports the end of the reinstall (useReinstallOutcome).
  const status = useServerStatus(detail.id).data?.status;
  return (
    <Card className="border-red-200 p-6" aria-labelledby="reinstall-heading" role="region">
      <h2 id="reinstall-heading" className="text-lg font-semibold text-slate-900">Server neuinstallieren</h2>
      <p className="mt-1 text-sm text-slate-600">{serverSettingsMessages.reinstallWarning}</p>
      <Button variant="danger" className="mt-4" disabled={status === 'reinstall'} onClick={() => setOpen(true)}><RefreshCw className="size-4" aria-hidden="true" /> Server neuinstallieren</Button>
      <ReinstallDialog detail={detail} linux={linux} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
