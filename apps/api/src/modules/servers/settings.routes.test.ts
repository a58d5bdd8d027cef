import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, serverSettingsMessages } from '@hp/contract';
import { describeEachDatabase, createUser, type TestContext } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { ipAddresses, nodes, servers, serverAccess, serverTasks, simVms } from '../../db/schema/index.ts';
import { settleRunningTasks } from './task-settler.ts';


/** A syntactically real OpenSSH ed25519 public key line. */
function ed25519Key(comment = 'user@host') {
  const type = Buffer.from('ssh-ed25519');
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const blob = Buffer.concat([u32(type.length), type, u32(32), crypto.randomBytes(32)]);
  return `ssh-ed25519 ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
}

const hostState = async (ctx: TestContext, vmid: number) => {
  const [row] = await ctx.database.db.select().from(simVms).where(eq(simVms.vmid, vmid));
  return row!.state as { sshKeys: string; rootPasswordHash?: string; os: string; packages: string[] };
};

async function waitForIdle(ctx: TestContext, id: string) {
  for (let i = 0; i < 400; i++) {
    const [row] = await ctx.database.db.select().from(servers).where(eq(servers.id, id));
    if (!row!.busyTaskId) return row!;
    // Software and reinstall run as durable jobs: the test drives the runner.
    await ctx.app.jobs.drain();
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('server stayed busy');
}

const STRONG = 'Root!Passw0rt';

describeEachDatabase('servers: settings tab (SSH keys, root password, sharing, reinstall)', (ctx) => {
  it('SSH keys: validated line by line (max 20) and applied on the host and in servers.ssh_keys', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const url = `/api/servers/${server.id}/ssh-keys`;
    const bad = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { keys: `${ed25519Key()}\nssh-dss AAAAB3NzaC1kc3MAAACBAP foo` } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(serverSettingsMessages.sshKeyInvalid(2));
    const wrongBlob = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { keys: 'ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIGx0aGVyZWlzbm9rZXloZXJlYXRhbGxyZWFsbHk= me' } });
    expect(wrongBlob.statusCode).toBe(400);
    const tooMany = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { keys: Array.from({ length: 21 }, () => ed25519Key()).join('\n') } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe(serverSettingsMessages.sshKeyTooMany);
    expect(await hostState(ctx(), server.vmid)).toMatchObject({ sshKeys: '' });

    const keys = [ed25519Key('anna@laptop'), ed25519Key('')];
    const ok = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { keys: `\n  ${keys[0]}  \n\n${keys[1]}\n` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().sshKeys).toBe(keys.join('\n'));
    expect((await hostState(ctx(), server.vmid)).sshKeys).toBe(keys.join('\n'));
    const settings = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/settings`, headers: owner.auth });
    expect(settings.json()).toMatchObject({ access: 'owner', sshKeys: keys.join('\n'), sharedWith: [], rootPasswordSetAt: null, linux: true });
  });

  it('root password: product rules, confirmation, set on the host and never stored by us', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const url = `/api/servers/${server.id}/root-password`;
    for (const [password, message] of [['kurz', messages.PASSWORT_TO_SHORT], ['allesklein!1', messages.passwordRulesUnmet], ['OhneZiffer!!', messages.passwordRulesUnmet]] as const) {
      const res = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { password, confirmPassword: password } });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const differ = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { password: STRONG, confirmPassword: `${STRONG}x` } });
    expect(differ.json().error.message).toBe(messages.passwordsDiffer);
    expect((await hostState(ctx(), server.vmid)).rootPasswordHash).toBeUndefined();

    const ok = await ctx().app.inject({ method: 'PUT', url, headers: owner.auth, payload: { password: STRONG, confirmPassword: STRONG } });
    expect(ok.statusCode).toBe(200);
    expect((await hostState(ctx(), server.vmid)).rootPasswordHash).toMatch(/^\$argon2id\$/);
    const settings = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/settings`, headers: owner.auth });
    expect(settings.json().rootPasswordSetAt).toEqual(expect.any(String));
    const rows = [...await ctx().database.db.select().from(servers).where(eq(servers.id, server.id)), ...await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id))];
    expect(JSON.stringify(rows)).not.toContain(STRONG);
  });

  it('Windows: SSH keys are refused with a German 409 and the password is the Administrator password', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id, { os: 'Windows Server 2025' });
    const keys = await ctx().app.inject({ method: 'PUT', url: `/api/servers/${server.id}/ssh-keys`, headers: owner.auth, payload: { keys: ed25519Key() } });
    expect(keys.statusCode).toBe(409);
    expect(keys.json().error).toMatchObject({ code: 'SSH_KEYS_WINDOWS', message: serverSettingsMessages.sshKeysWindows });
    const empty = await ctx().app.inject({ method: 'PUT', url: `/api/servers/${server.id}/ssh-keys`, headers: owner.auth, payload: { keys: '' } });
    expect(empty.statusCode).toBe(409);
    expect((await hostState(ctx(), server.vmid)).sshKeys).toBe('');
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.sshKeys).toBe('');

    const password = await ctx().app.inject({ method: 'PUT', url: `/api/servers/${server.id}/root-password`, headers: owner.auth, payload: { password: STRONG, confirmPassword: STRONG } });
    expect(password.statusCode).toBe(200);
    expect(password.json().message).toBe(serverSettingsMessages.adminPasswordSaved);
    const settings = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/settings`, headers: owner.auth });
    expect(settings.json()).toMatchObject({ linux: false, sshKeys: '' });

    // A Linux server keeps its SSH keys and its root password.
    const { server: linux } = await seedServer(ctx(), owner.user.id);
    const rootPassword = await ctx().app.inject({ method: 'PUT', url: `/api/servers/${linux.id}/root-password`, headers: owner.auth, payload: { password: STRONG, confirmPassword: STRONG } });
    expect(rootPassword.json().message).toBe(serverSettingsMessages.rootPasswordSaved);
    expect((await ctx().app.inject({ method: 'PUT', url: `/api/servers/${linux.id}/ssh-keys`, headers: owner.auth, payload: { keys: ed25519Key() } })).statusCode).toBe(200);
  });

  it('sharing by username: the friend sees and powers the server, cannot share or reinstall; removing hides it', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const staff = await createUser(ctx(), { role: 'employee' });
    const { server } = await seedServer(ctx(), owner.user.id);
    const share = (username: string, auth = owner.auth) => ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/access`, headers: auth, payload: { username } });

    expect((await share('')).json().error.message).toBe(messages.usernameRequired);
    const unknown = await share('gibt-es-nicht');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(serverSettingsMessages.userNotFound);
    expect((await share(staff.username)).json().error.message).toBe(serverSettingsMessages.userNotFound);
    const self = await share(owner.username.toUpperCase());
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(serverSettingsMessages.shareSelf);

    const ok = await share(friend.username.toUpperCase());
    expect(ok.statusCode).toBe(201);
    expect(ok.json().username).toBe(friend.username);
    expect((await share(friend.username)).statusCode).toBe(409);

    const list = await ctx().app.inject({ method: 'GET', url: '/api/servers', headers: friend.auth });
    expect(list.json().servers).toEqual([expect.objectContaining({ id: server.id, access: 'shared' })]);
    const ownerSettings = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/settings`, headers: owner.auth });
    expect(ownerSettings.json().sharedWith).toEqual([{ username: friend.username, since: expect.any(String) }]);
    const friendSettings = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/settings`, headers: friend.auth });
    expect(friendSettings.json()).toMatchObject({ access: 'shared', sharedWith: null });

    const power = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/power`, headers: friend.auth, payload: { action: 'stop' } });
    expect(power.statusCode).toBe(202);
    const further = await share(staff.username, friend.auth);
    expect(further.statusCode).toBe(403);
    expect(further.json().error.message).toBe(serverSettingsMessages.shareOwnerOnly);
    const unshareByFriend = await ctx().app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/access/${friend.username}`, headers: friend.auth });
    expect(unshareByFriend.statusCode).toBe(403);
    const reinstall = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/reinstall`, headers: friend.auth, payload: { os: 'Debian 11', password: STRONG, confirmPassword: STRONG } });
    expect(reinstall.statusCode).toBe(403);
    expect(reinstall.json().error.message).toBe(serverSettingsMessages.reinstallOwnerOnly);
    // The power operation is settled by the background settler (as in production).
    for (let i = 0; i < 200 && (await ctx().database.db.select().from(servers).where(eq(servers.id, server.id)))[0]!.busyTaskId; i++) {
      await settleRunningTasks(ctx().app.deps);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await waitForIdle(ctx(), server.id)).status).toBe('offline');

    const remove = await ctx().app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/access/${friend.username}`, headers: owner.auth });
    expect(remove.statusCode).toBe(204);
    expect((await ctx().app.inject({ method: 'DELETE', url: `/api/servers/${server.id}/access/${friend.username}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/servers', headers: friend.auth })).json().servers).toEqual([]);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}`, headers: friend.auth })).statusCode).toBe(404);
  });

  it('reinstall: mismatching passwords → 400 spec text; then reinstall → online with the new OS and the IPs kept', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    await ctx().app.deps.hypervisor.exec({ node: (await ctx().database.db.select().from(nodes).where(eq(nodes.id, server.nodeId)))[0]!.name, vmid: server.vmid }, ['apt-get', 'install', '-y', 'nginx']);
    const url = `/api/servers/${server.id}/reinstall`;
    const mismatch = await ctx().app.inject({ method: 'POST', url, headers: owner.auth, payload: { os: 'Ubuntu 24.04', password: STRONG, confirmPassword: 'Anderes!Passw0rt' } });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.message).toBe('Die Passwörter stimmen nicht überein. Bitte prüfen Sie Ihre Eingaben.');
    const badOs = await ctx().app.inject({ method: 'POST', url, headers: owner.auth, payload: { os: 'Ubuntu 22.05', password: STRONG, confirmPassword: STRONG } });
    expect(badOs.statusCode).toBe(400);
    expect(badOs.json().error.message).toBe(serverSettingsMessages.osRequired);

    const res = await ctx().app.inject({ method: 'POST', url, headers: owner.auth, payload: { os: 'Ubuntu 22.04', password: STRONG, confirmPassword: STRONG } });
    expect(res.statusCode).toBe(202);
    expect(res.json().status).toBe('reinstall');
    const status = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/status`, headers: owner.auth });
    expect(status.json().status).toBe('reinstall');
    const busy = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/software/nginx/install`, headers: owner.auth, payload: {} });
    expect(busy.statusCode).toBe(409);

    const done = await waitForIdle(ctx(), server.id);
    expect(done).toMatchObject({ status: 'online', os: 'Ubuntu 22.04', statusMessage: null });
    const host = await hostState(ctx(), server.vmid);
    expect(host.os).toBe('ubuntu-22.04');
    expect(host.packages).toEqual([]);
    expect(host.rootPasswordHash).toMatch(/^\$argon2id\$/);
    const [task] = await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.id, res.json().taskId));
    expect(task).toMatchObject({ kind: 'reinstall', status: 'ok', progress: 100 });
    expect(JSON.stringify(task)).not.toContain(STRONG);
    const [ip] = await ctx().database.db.select().from(ipAddresses).where(eq(ipAddresses.serverId, server.id));
    expect(ip).toBeDefined();
  });

  it('another customer gets 404 on every settings route and nothing changes', async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const calls = [
      ['GET', `/api/servers/${server.id}/settings`, undefined],
      ['PUT', `/api/servers/${server.id}/ssh-keys`, { keys: ed25519Key() }],
      ['PUT', `/api/servers/${server.id}/root-password`, { password: STRONG, confirmPassword: STRONG }],
      ['POST', `/api/servers/${server.id}/access`, { username: other.username }],
      ['DELETE', `/api/servers/${server.id}/access/${owner.username}`, undefined],
      ['POST', `/api/servers/${server.id}/reinstall`, { os: 'Debian 11', password: STRONG, confirmPassword: STRONG }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const res = await ctx().app.inject({ method, url, headers: other.auth, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row).toMatchObject({ status: 'online', os: 'Debian 12', sshKeys: '', busyTaskId: null });
    expect(await ctx().database.db.select().from(serverAccess).where(eq(serverAccess.serverId, server.id))).toEqual([]);
    expect(await ctx().database.db.select().from(serverTasks).where(eq(serverTasks.serverId, server.id))).toEqual([]);
    const host = await hostState(ctx(), server.vmid);
    expect(host).toMatchObject({ sshKeys: '', os: 'debian-12' });
    expect(host.rootPasswordHash).toBeUndefined();
  });
});
