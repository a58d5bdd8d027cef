import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { simTasks, simVms } from '../../../db/schema/infrastructure.ts';
import { databaseKinds, freshDatabase as freshTestDatabase } from '../../../../test/harness.ts';
import { describeHypervisorContract } from '../hypervisor.contract.ts';
import { HypervisorError, parseUpid, type CreateServerSpec, type VmRef } from '../hypervisor.ts';
import { createSimulatedHypervisor, type SimulatedHypervisor } from './simulated.ts';

/** A fresh, migrated database (the harness's copy of the run's migrated one), closed and dropped by `close`. */
async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<{ database: Database; close: () => Promise<void> }> {
  const { database, drop } = await freshTestDatabase(kind);
  return { database, close: async () => { await database.close(); await drop(); } };
}

const SPEED = 50;
const NODE = 'sim1';

for (const kind of databaseKinds()) {
  describeHypervisorContract(`simulated [${kind}]`, async () => {
    const { database, close } = await freshDatabase(kind);
    let vmid = 100;
    return { hypervisor: createSimulatedHypervisor(database.db, { speed: SPEED }), node: NODE, nextVmid: () => vmid++, cleanup: close };
  });

  describe(`simulated hypervisor specifics [${kind}]`, () => {
    let database: Database;
    let close: () => Promise<void>;
    let hv: SimulatedHypervisor;
    let vmid = 500;
    const spec = (over: Partial<CreateServerSpec> = {}): CreateServerSpec => {
      const id = vmid++;
      return { node: NODE, vmid: id, name: `srv-${id}`, os: 'debian-12', cores: 2, memoryMb: 2048, diskGb: 20, rootPassword: 'Sehr!Geheim123', sshKeys: '', ...over };
    };
    const create = async (over: Partial<CreateServerSpec> = {}): Promise<VmRef> => {
      const s = spec(over);
      await hv.createServer(s);
      return { node: s.node, vmid: s.vmid };
    };

    beforeAll(async () => {
      ({ database, close } = await freshDatabase(kind));
      hv = createSimulatedHypervisor(database.db, { speed: SPEED });
    });
    afterAll(async () => {
      await close?.();
    });

    it('an injected task failure ends the task with the error text; waitForTask throws TASK_FAILED', async () => {
      const vm = await create();
      await hv.waitForTask(await hv.power(vm, 'stop'));
      const message = `can't lock file '/var/lock/qemu-server/lock-${vm.vmid}.conf' - got timeout`;
      hv.injectFailure({ op: 'start', error: message });
      const task = await hv.power(vm, 'start');
      const error = await hv.waitForTask(task).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HypervisorError);
      expect((error as HypervisorError).code).toBe('TASK_FAILED');
      expect((error as HypervisorError).detail).toBe(message);
      expect(await hv.taskStatus(task)).toEqual({ status: 'failed', error: message });
      // The effect of a failed start does not apply; the next attempt works.
      expect((await hv.currentStatus(vm)).status).toBe('stopped');
      await hv.waitForTask(await hv.power(vm, 'start'));
      expect((await hv.currentStatus(vm)).status).toBe('running');
    });

    it('injected codes make the call throw, `times` times, and reset() forgets them', async () => {
      const vm = await create();
      hv.injectFailure({ op: 'vzdump', error: 'LOCKED', times: 2 });
      for (let i = 0; i < 2; i++) {
        const e = await hv.createBackup(vm).then(() => undefined, (x: unknown) => x);
        expect((e as HypervisorError).code).toBe('LOCKED');
      }
      await hv.waitForTask(await hv.createBackup(vm));
      hv.injectFailure({ op: 'status', error: 'UNAVAILABLE' });
      expect(((await hv.currentStatus(vm).catch((e: unknown) => e)) as HypervisorError).code).toBe('UNAVAILABLE');
      hv.injectFailure({ op: 'reboot', error: 'TIMEOUT' });
      hv.reset();
      await hv.waitForTask(await hv.power(vm, 'reboot'));
    });

    it('a failed clone leaves no VM behind, and the create can be retried', async () => {
      const s = spec();
      hv.injectFailure({ op: 'clone', error: 'clone failed: storage migration failed: out of space', vmid: s.vmid });
      const e = await hv.createServer(s).then(() => undefined, (x: unknown) => x);
      expect((e as HypervisorError).code).toBe('TASK_FAILED');
      expect((e as HypervisorError).detail).toContain('out of space');
      const error = await hv.currentStatus(s).catch((x: unknown) => x);
      expect((error as HypervisorError).code).toBe('NOT_FOUND');
      await hv.createServer(s);
      expect((await hv.currentStatus(s)).status).toBe('running');
    });

    it('the failures option decides per call', async () => {
      const calls: string[] = [];
      const other = createSimulatedHypervisor(database.db, { speed: SPEED, failures: (op) => (calls.push(op), op === 'exec' ? 'UNAVAILABLE' : undefined) });
      const vm = await create();
      const e = await other.exec(vm, ['apt-get', 'install', '-y', 'nginx']).catch((x: unknown) => x);
      expect((e as HypervisorError).code).toBe('UNAVAILABLE');
      expect(calls).toContain('exec');
    });

    it('effects apply exactly once under parallel status reads', async () => {
      const vm = await create();
      const backup = await hv.createBackup(vm);
      const reboot = await hv.power(vm, 'reboot').catch(() => undefined);
      expect(reboot).toBeUndefined(); // the backup holds the VM: "VM is locked (backup)"
      await new Promise((r) => setTimeout(r, 15_000 / SPEED + 20));
      const results = await Promise.all([
        ...Array.from({ length: 15 }, () => hv.taskStatus(backup)),
        ...Array.from({ length: 10 }, () => hv.currentStatus(vm)),
        ...Array.from({ length: 5 }, () => hv.listBackups(vm)),
      ]);
      expect(results.slice(0, 15).every((r) => JSON.stringify(r) === '{"status":"ok"}')).toBe(true);
      expect(await hv.listBackups(vm)).toHaveLength(1);
      const [row] = await database.db.select().from(simTasks).where(eq(simTasks.upid, backup.upid));
      expect(row!.appliedAt).not.toBeNull();

      // A reboot appends exactly one new run to the power history.
      const runsBefore = ((await vmState(vm.vmid)).runs as unknown[]).length;
      const task = await hv.power(vm, 'reboot');
      await new Promise((r) => setTimeout(r, 9_000 / SPEED + 20));
      await Promise.all(Array.from({ length: 20 }, () => hv.taskStatus(task)));
      expect(((await vmState(vm.vmid)).runs as unknown[]).length).toBe(runsBefore + 1);
    });

    async function vmState(id: number) {
      const [row] = await database.db.select().from(simVms).where(eq(simVms.vmid, id));
      return row!.state;
    }

    it('state survives a new driver instance on the same database (restart)', async () => {
      const vm = await create({ name: 'persist-me' });
      await hv.setFirewall(vm, true);
      await hv.addFirewallRule(vm, { proto: 'tcp', dport: '443', comment: 'https' });
      await hv.exec(vm, ['apt-get', 'install', '-y', 'docker']);
      const pendingBackup = await hv.createBackup(vm);

      const restarted = createSimulatedHypervisor(database.db, { speed: SPEED });
      await restarted.waitForTask(pendingBackup);
      expect(await restarted.listBackups(vm)).toHaveLength(1);
      expect(await restarted.listFirewallRules(vm)).toMatchObject([{ pos: 0, dport: '443', comment: 'https' }]);
      expect((await restarted.currentStatus(vm)).status).toBe('running');
      const again = await restarted.exec(vm, ['apt-get', 'install', '-y', 'docker']);
      expect(again.stdout).toContain('already the newest version');
    });

    it('durations at speed 1 are realistic; progress is proportional; lock shows while a backup runs', async () => {
      const slow = createSimulatedHypervisor(database.db);
      const vm = await create();
      const backup = await slow.createBackup(vm);
      const reboot = await createSimulatedHypervisor(database.db).power(await create(), 'reboot');
      const rows = await database.db.select().from(simTasks).where(eq(simTasks.upid, backup.upid));
      expect(rows[0]!.durationMs).toBe(15_000);
      expect((await database.db.select().from(simTasks).where(eq(simTasks.upid, reboot.upid)))[0]!.durationMs).toBe(9_000);
      const state = await slow.taskStatus(backup);
      expect(state.status).toBe('running');
      expect(state.status === 'running' && state.progress! < 20).toBe(true);
      expect((await slow.currentStatus(vm)).lock).toBe('backup');
      const locked = await slow.power(vm, 'stop').catch((e: unknown) => e);
      expect((locked as HypervisorError).code).toBe('LOCKED');
      const timeout = await slow.waitForTask(backup, { timeoutMs: 30 }).catch((e: unknown) => e);
      expect((timeout as HypervisorError).code).toBe('TIMEOUT');
      // Tidy up: let the backup end now.
      await database.db.update(simTasks).set({ durationMs: 1 }).where(eq(simTasks.upid, backup.upid));
      expect(await slow.taskStatus(backup)).toEqual({ status: 'ok' });
    });

    it('virtual data center: the SDN reload and the image copy are tasks with Proxmox types and durations', async () => {
      await hv.createPrivateNetwork({ vnet: 'sim1net', tag: 101, subnet: '10.1.0.0/24', gateway: '10.1.0.1' });
      const reload = (await database.db.select().from(simTasks).where(eq(simTasks.type, 'reloadnetworkall'))).at(-1)!;
      expect(reload.durationMs).toBe(6_000 / SPEED);
      expect(parseUpid(reload.upid)).toMatchObject({ node: NODE, type: 'reloadnetworkall', id: '', user: 'portal@pve!api' });
      const size = 1_000_000;
      const iso = await hv.uploadIso({ node: NODE, filename: 'sim.iso', size, data: (async function* () { yield Buffer.alloc(size); })() });
      const copy = (await database.db.select().from(simTasks).where(eq(simTasks.type, 'imgcopy'))).at(-1)!;
      expect(copy.durationMs).toBe(Math.round((2_000 + size / 500_000) / SPEED));
      expect(copy.node).toBe(NODE);
      // The image is on the node it was uploaded to, not on another.
      expect((await hv.listIsos(NODE)).map((i) => i.volid)).toContain(iso.volid);
      expect(await hv.listIsos('sim2')).toEqual([]);
      await hv.deleteIso(NODE, iso.volid);
      await hv.deletePrivateNetwork('sim1net');
    });

    it('virtual data center: an image whose copy task fails is not listed; a failed SDN reload keeps the VNet and a retry applies it', async () => {
      hv.injectFailure({ op: 'upload', error: "checksum mismatch: got 'aa' != expect 'bb'" });
      const failed = await hv.uploadIso({ node: NODE, filename: 'bad.iso', size: 3, data: (async function* () { yield Buffer.from('abc'); })() }).catch((e: unknown) => e);
      expect((failed as HypervisorError).code).toBe('TASK_FAILED');
      expect((failed as HypervisorError).detail).toMatch(/checksum mismatch/);
      expect((await hv.listIsos(NODE)).some((i) => i.volid.endsWith('/bad.iso'))).toBe(false);

      const spec = { vnet: 'sim2net', tag: 102, subnet: '10.2.0.0/24', gateway: '10.2.0.1' };
      hv.injectFailure({ op: 'sdn', error: 'reload network failed' });
      expect(((await hv.createPrivateNetwork(spec).catch((e: unknown) => e)) as HypervisorError).code).toBe('TASK_FAILED');
      expect(await hv.getPrivateNetwork(spec.vnet)).toMatchObject({ tag: 102 });
      await hv.createPrivateNetwork(spec);
      await hv.deletePrivateNetwork(spec.vnet);
    });

    it('virtual data center: creating a VM into a pool and deleting the pool at once never leave a VM in a deleted pool', async () => {
      for (let round = 0; round < 3; round++) {
        const poolid = `vdc-race-${round}`;
        await hv.createPool({ poolid });
        const s = spec({ pool: poolid });
        const [created, deleted] = await Promise.allSettled([hv.createServer(s), hv.deletePool(poolid)]);
        const pool = await hv.getPool(poolid);
        if (created.status === 'fulfilled') {
          expect(deleted.status).toBe('rejected');
          expect(pool?.vmids).toEqual([s.vmid]);
          await hv.deleteServer(s);
          await hv.deletePool(poolid);
        } else {
          expect(deleted.status).toBe('fulfilled');
          expect(pool).toBeNull();
          expect(((await hv.currentStatus(s).catch((e: unknown) => e)) as HypervisorError).code).toBe('NOT_FOUND');
        }
      }
    });

    it('UPIDs follow Proxmox (clone names the template, tasks by portal@pve!api)', async () => {
      const vm = await create({ os: 'ubuntu-24.04' });
      const rows = await database.db.select().from(simTasks).where(eq(simTasks.vmid, vm.vmid));
      const types = rows.map((r) => r.type).sort();
      expect(types).toEqual(['qmclone', 'qmresize', 'qmstart']);
      for (const r of rows) {
        const p = parseUpid(r.upid)!;
        expect(p.user).toBe('portal@pve!api');
        expect(p.node).toBe(NODE);
        expect(p.type).toBe(r.type);
      }
      expect(parseUpid(rows.find((r) => r.type === 'qmclone')!.upid)!.id).toBe('9012');
      expect(await database.db.select().from(simTasks).where(isNotNull(simTasks.appliedAt)).then((x) => x.length)).toBeGreaterThan(0);
    });

    it('usage is deterministic per VM and time and changes over time', async () => {
      let t = Date.parse('2026-08-20T10:00:00Z');
      const clocked = createSimulatedHypervisor(database.db, { speed: SPEED, now: () => t });
      const vm = await create();
      await hv.waitForTask(await hv.power(vm, 'reboot'));
      t = Date.now() + 3_600_000;
      const a = await clocked.currentStatus(vm);
      const b = await clocked.currentStatus(vm);
      expect(a).toEqual(b);
      expect(a.cpu).toBeGreaterThanOrEqual(0.02);
      expect(a.cpu).toBeLessThanOrEqual(0.6);
      expect(a.uptime).toBeGreaterThanOrEqual(3599);
      // Over the next hour the load moves (two readings alone may both sit at the 2 % floor).
      const later: number[] = [];
      for (let i = 0; i < 6; i++) {
        t += 600_000;
        later.push((await clocked.currentStatus(vm)).cpu);
      }
      expect(new Set([a.cpu, ...later]).size, `cpu over an hour: ${[a.cpu, ...later].join(', ')}`).toBeGreaterThan(1);
      const c = await clocked.currentStatus(vm);
      expect(c.netin).toBeGreaterThan(a.netin);
      expect(c.netout).toBeGreaterThan(a.netout);
      const hour = await clocked.usageHistory(vm, 'hour');
      expect(hour.length).toBeGreaterThanOrEqual(50);
      expect(hour.some((p) => p.cpu > 0)).toBe(true);
    });

    it('shrinking a disk is refused; cores and memory change', async () => {
      const vm = await create();
      const e = await hv.resizeServer(vm, { cores: 4, memoryMb: 4096, diskGb: 10 }).catch((x: unknown) => x);
      expect((e as HypervisorError).code).toBe('INVALID');
      await hv.resizeServer(vm, { cores: 4, memoryMb: 4096, diskGb: 20 });
      expect((await hv.currentStatus(vm)).cpus).toBe(4);
    });

    it('exec simulates the software catalogue and remembers packages; unknown commands exit 127', async () => {
      const vm = await create();
      const install = await hv.exec(vm, ['apt-get', 'install', '-y', 'nginx']);
      expect(install.exitCode).toBe(0);
      expect(install.stdout).toContain('Setting up nginx');
      expect((await vmState(vm.vmid)).packages).toEqual(['nginx']);
      expect((await hv.exec(vm, ['sh', '-c', 'DEBIAN_FRONTEND=noninteractive apt-get install -y mysql-server && systemctl is-active mysql'])).exitCode).toBe(0);
      expect((await vmState(vm.vmid)).packages).toEqual(['nginx', 'mysql-server']);
      const remove = await hv.exec(vm, ['apt-get', 'remove', '-y', 'nginx']);
      expect(remove.exitCode).toBe(0);
      expect(remove.stdout).toContain('Removing nginx');
      expect((await vmState(vm.vmid)).packages).toEqual(['mysql-server']);
      expect((await hv.exec(vm, ['apt-get', 'install', '-y', 'no-such-package'])).exitCode).toBe(100);
      const unknown = await hv.exec(vm, ['frobnicate', '--now']);
      expect(unknown.exitCode).toBe(127);
      expect(unknown.stdout).toContain('frobnicate: command not found');
    });

    it('root password and SSH keys are stored, the password only as a hash', async () => {
      const vm = await create();
      await hv.setRootPassword(vm, 'Neues!Passwort99');
      await hv.setSshKeys(vm, 'ssh-ed25519 AAAAkey user@host');
      const state = await vmState(vm.vmid);
      const text = JSON.stringify(state);
      expect(text).not.toContain('Neues!Passwort99');
      expect(text).not.toContain('Sehr!Geheim123');
      expect(String(state.rootPasswordHash)).toMatch(/^\$argon2id\$/);
      expect(state.sshKeys).toBe('ssh-ed25519 AAAAkey user@host');
    });

    it('console: Debian banner and prompt, commands, line editing, unknown command, exit closes', async () => {
      const vm = await create({ name: 'srv-console' });
      const conn = await hv.openConsole(vm);
      let out = '';
      let closed = 0;
      conn.onData((d) => (out += d));
      conn.onClose(() => closed++);
      const until = async (re: RegExp) => {
        for (let i = 0; i < 300 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 10));
        expect(out).toMatch(re);
      };
      await until(/root@srv-console:~# $/);
      expect(out).toContain('Debian GNU/Linux 12 srv-console ttyS0');
      out = '';
      conn.write('hostnamx\x7fe\r\n');
      await until(/\r\nsrv-console\r\nroot@srv-console:~# $/);
      expect(out).toContain('\b \b');
      out = '';
      conn.write('uname -a\r');
      await until(/Linux srv-console 6\.1\.0-25-amd64 .*x86_64 GNU\/Linux\r\n/);
      for (const cmd of ['uptime', 'df -h', 'free -m', 'ip a', 'whoami', 'ls -la', 'help']) {
        out = '';
        conn.write(`${cmd}\r`);
        await until(/root@srv-console:~# $/);
        expect(out, cmd).not.toContain('command not found');
      }
      out = '';
      conn.write('foo\r');
      await until(/bash: foo: command not found\r\nroot@srv-console:~# $/);
      out = '';
      conn.write('apt-get install -y fail2ban\r');
      await until(/Setting up fail2ban[\s\S]*root@srv-console:~# $/);
      expect((await vmState(vm.vmid)).packages).toEqual(['fail2ban']);
      conn.write('exit\r');
      await until(/logout/);
      for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 5));
      expect(closed).toBe(1);
      conn.write('whoami\r'); // ignored after close
    });

    it('console banner follows the OS; stopped servers have no console', async () => {
      const vm = await create({ name: 'srv-ubuntu', os: 'ubuntu-24.04' });
      const conn = await hv.openConsole(vm);
      let out = '';
      conn.onData((d) => (out += d));
      for (let i = 0; i < 100 && !out.includes('# '); i++) await new Promise((r) => setTimeout(r, 5));
      expect(out).toContain('Ubuntu 24.04.1 LTS srv-ubuntu ttyS0');
      conn.close();
      await hv.waitForTask(await hv.power(vm, 'stop'));
      const e = await hv.openConsole(vm).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(HypervisorError);
    });

    it('listNodes reports sim1 and any node a VM lives on', async () => {
      await create({ node: 'sim2' });
      const nodes = await hv.listNodes();
      expect(nodes.map((n) => n.node)).toEqual(expect.arrayContaining(['sim1', 'sim2']));
      for (const n of nodes) {
        expect(n.status).toBe('online');
        expect(n.maxmem).toBeGreaterThan(n.mem);
        expect(n.cpu).toBeGreaterThanOrEqual(0);
        expect(n.cpu).toBeLessThanOrEqual(1);
      }
      const custom = createSimulatedHypervisor(database.db, { nodes: ['pve-a'] });
      expect((await custom.listNodes()).map((n) => n.node)).toContain('pve-a');
    });

    it('a VM on another node is not found; deleting while a backup runs is refused', async () => {
      const vm = await create();
      const e = await hv.currentStatus({ node: 'elsewhere', vmid: vm.vmid }).catch((x: unknown) => x);
      expect((e as HypervisorError).code).toBe('NOT_FOUND');
      const backup = await hv.createBackup(vm);
      const locked = await hv.deleteServer(vm).catch((x: unknown) => x);
      expect((locked as HypervisorError).code).toBe('LOCKED');
      await hv.waitForTask(backup);
      await hv.deleteServer(vm);
      expect(await database.db.select().from(simVms).where(eq(simVms.vmid, vm.vmid))).toHaveLength(0);
    });
  });
}
