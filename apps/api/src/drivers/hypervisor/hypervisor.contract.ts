/**
 * The contract every Hypervisor driver passes: the simulated driver (on PGlite and PostgreSQL) and the
 * Proxmox driver (against the fake Proxmox API, and a real node where available). Keep each test fast
 * with the simulated driver at speed 50.
 *
 * Usage (in a *.test.ts):
 *   describeHypervisorContract('simulated', async () => ({ hypervisor, node: 'sim1', nextVmid: () => vmid++ }));
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HypervisorError, formatUpid, parseUpid,
  type ConsoleConnection, type CreateServerSpec, type Hypervisor, type HypervisorErrorCode, type TaskRef, type VmRef,
} from './hypervisor.ts';

export interface HypervisorContractCapabilities {
  /** false: the driver cannot open a console in this environment (the console test is skipped). */
  console?: boolean;
}

export interface HypervisorContractSetup {
  hypervisor: Hypervisor;
  /** The node the servers are created on. */
  node: string;
  /** A fresh, unused VM id on every call. */
  nextVmid: () => number;
  cleanup?: () => Promise<void>;
  capabilities?: HypervisorContractCapabilities;
  /** Upper bound for one task (default 20 s). */
  taskTimeoutMs?: number;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Waits until the condition holds for the collected console output. */
function waitForOutput(get: () => string, test: (text: string) => boolean, timeoutMs = 5000) {
  return new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const text = get();
      if (test(text)) resolve(text);
      else if (Date.now() - started > timeoutMs) reject(new Error(`console output did not match within ${timeoutMs} ms:\n${JSON.stringify(text.slice(-500))}`));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

/** A small image with the ISO 9660 primary volume descriptor ("CD001" at 0x8001). */
function isoImage(size: number) {
  const bytes = Buffer.alloc(size, 0x5a);
  bytes.write('\x01CD001\x01', 0x8000, 'latin1');
  return bytes;
}

async function* chunks(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function expectHypervisorError(promise: Promise<unknown>, code?: HypervisorErrorCode) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, 'expected a HypervisorError').toBeInstanceOf(HypervisorError);
  if (code) expect((error as HypervisorError).code).toBe(code);
  return error as HypervisorError;
}

export function describeHypervisorContract(name: string, setup: () => Promise<HypervisorContractSetup>) {
  describe(`Hypervisor contract: ${name}`, () => {
    let ctx: HypervisorContractSetup;
    let hv: Hypervisor;
    const created: VmRef[] = [];
    let mainVm: Promise<VmRef> | undefined;

    beforeAll(async () => {
      ctx = await setup();
      hv = ctx.hypervisor;
    });
    afterAll(async () => {
      await ctx?.cleanup?.();
    });

    const wait = (task: TaskRef, onProgress?: (p: number) => void) => hv.waitForTask(task, { timeoutMs: ctx.taskTimeoutMs ?? 20_000, onProgress });

    const specFor = (vmid: number, over: Partial<CreateServerSpec> = {}): CreateServerSpec => ({
      node: ctx.node, vmid, name: `ct-${vmid}`, os: 'debian-12', cores: 1, memoryMb: 1024, diskGb: 10,
      ipv4: { address: `203.0.113.${vmid % 250 + 2}`, prefix: 24, gateway: '203.0.113.1' },
      rootPassword: 'Contract!Passw0rd', sshKeys: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIContractKeyOnly contract@test',
      ...over,
    });

    async function create(over: Partial<CreateServerSpec> = {}) {
      const vm = { node: ctx.node, vmid: ctx.nextVmid() };
      const progress: number[] = [];
      await hv.createServer(specFor(vm.vmid, over), (p) => progress.push(p));
      created.push(vm);
      return { vm, progress };
    }

    /** One server shared by the tests that only need some running server. */
    const main = () => (mainVm ??= create().then((r) => r.vm));

    async function expectUpid(task: TaskRef, type: string, vmid: number) {
      expect(task.node).toBe(ctx.node);
      const parsed = parseUpid(task.upid);
      expect(parsed, `UPID ${task.upid}`).not.toBeNull();
      expect(formatUpid(parsed!)).toBe(task.upid);
      expect(parsed!.node).toBe(ctx.node);
      expect(parsed!.type).toBe(type);
      expect(parsed!.id).toBe(String(vmid));
    }

    it('creates a server: progress climbs to 100 and the server runs', async () => {
      const { vm, progress } = await create();
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toBe(100);
      for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
      for (const p of progress) expect(p >= 0 && p <= 100).toBe(true);
      const status = await hv.currentStatus(vm);
      expect(status.status).toBe('running');
      expect(status.cpus).toBe(1);
      expect(status.maxmem).toBe(1024 * MiB);
      expect(status.maxdisk).toBe(10 * GiB);
    });

    it('createServer is idempotent for the same VM and refuses a VM id taken by another server', async () => {
      const vm = await main();
      await hv.createServer(specFor(vm.vmid));
      expect((await hv.currentStatus(vm)).status).toBe('running');
      await expectHypervisorError(hv.createServer(specFor(vm.vmid, { name: `other-${vm.vmid}` })));
    });

    it('20 parallel creations with distinct VM ids all succeed', async () => {
      const vmids = Array.from({ length: 20 }, () => ctx.nextVmid());
      expect(new Set(vmids).size).toBe(20);
      await Promise.all(vmids.map((vmid) => hv.createServer(specFor(vmid))));
      const statuses = await Promise.all(vmids.map((vmid) => hv.currentStatus({ node: ctx.node, vmid })));
      for (const s of statuses) expect(s.status).toBe('running');
      created.push(...vmids.map((vmid) => ({ node: ctx.node, vmid })));
      // Each exists once: creating any of them under another name is refused.
      await expectHypervisorError(hv.createServer(specFor(vmids[0]!, { name: 'duplicate' })));
    });

    it('power: stop, start and reboot run as tasks with Proxmox UPIDs', async () => {
      const vm = await main();
      const stop = await hv.power(vm, 'stop');
      await expectUpid(stop, 'qmstop', vm.vmid);
      const running = await hv.taskStatus(stop);
      expect(['running', 'ok']).toContain(running.status);
      await wait(stop);
      expect(await hv.taskStatus(stop)).toEqual({ status: 'ok' });
      const stopped = await hv.currentStatus(vm);
      expect(stopped.status).toBe('stopped');
      expect(stopped.cpu).toBe(0);
      expect(stopped.uptime).toBe(0);

      const start = await hv.power(vm, 'start');
      await expectUpid(start, 'qmstart', vm.vmid);
      await wait(start);
      expect((await hv.currentStatus(vm)).status).toBe('running');

      const reboot = await hv.power(vm, 'reboot');
      await expectUpid(reboot, 'qmreboot', vm.vmid);
      const seen: number[] = [];
      await wait(reboot, (p) => seen.push(p));
      expect(seen.at(-1)).toBe(100);
      expect((await hv.currentStatus(vm)).status).toBe('running');

      const shutdown = await hv.power(vm, 'shutdown');
      await expectUpid(shutdown, 'qmshutdown', vm.vmid);
      await wait(shutdown);
      expect((await hv.currentStatus(vm)).status).toBe('stopped');
      await wait(await hv.power(vm, 'start'));
      expect((await hv.currentStatus(vm)).status).toBe('running');
    });

    it('start on a running server is a harmless no-op; stop on a stopped one too', async () => {
      const vm = await main();
      const before = await hv.currentStatus(vm);
      expect(before.status).toBe('running');
      await wait(await hv.power(vm, 'start'));
      const after = await hv.currentStatus(vm);
      expect(after.status).toBe('running');
      expect(after.uptime).toBeGreaterThanOrEqual(before.uptime);

      const { vm: other } = await create();
      await wait(await hv.power(other, 'stop'));
      await wait(await hv.power(other, 'stop'));
      expect((await hv.currentStatus(other)).status).toBe('stopped');
    });

    it('currentStatus has the Proxmox shape and plausible ranges', async () => {
      const vm = await main();
      const s = await hv.currentStatus(vm);
      for (const key of ['cpu', 'cpus', 'mem', 'maxmem', 'disk', 'maxdisk', 'netin', 'netout', 'uptime'] as const) {
        expect(Number.isFinite(s[key]), key).toBe(true);
        expect(s[key], key).toBeGreaterThanOrEqual(0);
      }
      expect(s.status).toBe('running');
      expect(s.cpu).toBeLessThanOrEqual(1);
      expect(s.maxmem).toBeGreaterThan(0);
      expect(s.mem).toBeLessThanOrEqual(s.maxmem);
      expect(s.maxdisk).toBeGreaterThan(0);
      expect(s.disk).toBeLessThanOrEqual(s.maxdisk);
      expect(s.lock === undefined || typeof s.lock === 'string').toBe(true);
    });

    it('usageHistory returns ordered, non-empty series for hour, day and week', async () => {
      const vm = await main();
      for (const timeframe of ['hour', 'day', 'week'] as const) {
        const points = await hv.usageHistory(vm, timeframe);
        expect(points.length, timeframe).toBeGreaterThan(0);
        for (let i = 1; i < points.length; i++) expect(points[i]!.time).toBeGreaterThan(points[i - 1]!.time);
        for (const p of points) {
          for (const key of ['time', 'cpu', 'mem', 'maxmem', 'netin', 'netout', 'diskread', 'diskwrite'] as const) {
            expect(Number.isFinite(p[key]), `${timeframe}.${key}`).toBe(true);
            expect(p[key]).toBeGreaterThanOrEqual(0);
          }
          expect(p.cpu).toBeLessThanOrEqual(1);
        }
        expect(points.at(-1)!.time).toBeLessThanOrEqual(Date.now() / 1000 + 60);
      }
    });

    it('backups: create → listed → restore → delete', async () => {
      const vm = await main();
      const before = await hv.listBackups(vm);
      const task = await hv.createBackup(vm);
      await expectUpid(task, 'vzdump', vm.vmid);
      await wait(task);
      const after = await hv.listBackups(vm);
      expect(after.length).toBe(before.length + 1);
      const backup = after.find((b) => !before.some((x) => x.volid === b.volid))!;
      expect(backup.volid).toMatch(new RegExp(`^[\\w-]+:backup/vzdump-qemu-${vm.vmid}-\\d{4}_\\d{2}_\\d{2}-\\d{2}_\\d{2}_\\d{2}\\.vma(\\.zst)?$`));
      expect(backup.size).toBeGreaterThan(0);
      expect(Math.abs(backup.ctime - Date.now() / 1000)).toBeLessThan(3600);

      const restore = await hv.restoreBackup(vm, backup.volid);
      expect(parseUpid(restore.upid)?.type).toBe('qmrestore');
      await wait(restore);
      const status = await hv.currentStatus(vm);
      if (status.status !== 'running') await wait(await hv.power(vm, 'start'));

      await hv.deleteBackup(vm, backup.volid);
      expect((await hv.listBackups(vm)).some((b) => b.volid === backup.volid)).toBe(false);
    });

    it('firewall: enable, add two rules (newest at pos 0), delete by position', async () => {
      const vm = await main();
      await hv.setFirewall(vm, true);
      const start = await hv.listFirewallRules(vm);
      await hv.addFirewallRule(vm, { proto: 'tcp', dport: '80,443', comment: 'contract web' });
      await hv.addFirewallRule(vm, { proto: 'tcp', dport: '22', comment: 'contract ssh' });
      let rules = await hv.listFirewallRules(vm);
      expect(rules.length).toBe(start.length + 2);
      expect(rules.map((r) => r.pos)).toEqual(rules.map((_, i) => i));
      expect(rules[0]).toMatchObject({ pos: 0, proto: 'tcp', dport: '22', comment: 'contract ssh', type: 'in', action: 'ACCEPT', enable: true });
      expect(rules[1]).toMatchObject({ pos: 1, proto: 'tcp', dport: '80,443', comment: 'contract web' });

      await hv.deleteFirewallRule(vm, 0);
      rules = await hv.listFirewallRules(vm);
      expect(rules.length).toBe(start.length + 1);
      expect(rules[0]).toMatchObject({ pos: 0, comment: 'contract web' });
      await hv.deleteFirewallRule(vm, 0);
      expect((await hv.listFirewallRules(vm)).length).toBe(start.length);
      await hv.setFirewall(vm, false);
    });

    it('exec installs a catalogue package with exit code 0', async () => {
      const vm = await main();
      const result = await hv.exec(vm, ['apt-get', 'install', '-y', 'nginx']);
      expect(result.exitCode).toBe(0);
      expect(typeof result.stdout).toBe('string');
    });

    it('root password and SSH keys can be set', async () => {
      const vm = await main();
      await hv.setRootPassword(vm, 'Another!Passw0rd');
      await hv.setSshKeys(vm, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAnotherKey other@test');
    });

    it('resize grows the disk and refuses to shrink it', async () => {
      const { vm } = await create();
      await hv.resizeServer(vm, { cores: 2, memoryMb: 2048, diskGb: 15 });
      const s = await hv.currentStatus(vm);
      expect(s.cpus).toBe(2);
      expect(s.maxmem).toBe(2048 * MiB);
      expect(s.maxdisk).toBe(15 * GiB);
      await expectHypervisorError(hv.resizeServer(vm, { cores: 2, memoryMb: 2048, diskGb: 12 }), 'INVALID');
      expect((await hv.currentStatus(vm)).maxdisk).toBe(15 * GiB);
    });

    it('reinstall re-creates the server under the same id and starts it', async () => {
      const { vm } = await create();
      const progress: number[] = [];
      await hv.reinstallServer(specFor(vm.vmid, { os: 'ubuntu-24.04' }), (p) => progress.push(p));
      expect(progress.at(-1)).toBe(100);
      expect((await hv.currentStatus(vm)).status).toBe('running');
    });

    it('console: banner and prompt, a command echoes its output, close', async (test) => {
      if (ctx.capabilities?.console === false) test.skip();
      const vm = await main();
      const conn: ConsoleConnection = await hv.openConsole(vm);
      let text = '';
      let closed = 0;
      conn.onData((d) => (text += d));
      conn.onClose(() => closed++);
      conn.resize(120, 40);
      await waitForOutput(() => text, (t) => /[#$>] ?$/.test(t));
      const mark = text.length;
      conn.write('echo contract-ok\r');
      await waitForOutput(() => text.slice(mark), (t) => /\r?\ncontract-ok\r?\n/.test(t));
      conn.close();
      await waitForOutput(() => String(closed), (t) => t === '1');
    });

    it('pools: created once, VMs are created inside, a pool with VMs is refused, an empty one deleted', async () => {
      const poolid = `vdc-${ctx.nextVmid()}`;
      expect(await hv.getPool(poolid)).toBeNull();
      // A VM cannot be created in a pool that does not exist, and nothing is left behind.
      const orphan = { node: ctx.node, vmid: ctx.nextVmid() };
      await expectHypervisorError(hv.createServer(specFor(orphan.vmid, { pool: poolid })));
      await expectHypervisorError(hv.currentStatus(orphan), 'NOT_FOUND');

      await hv.createPool({ poolid, comment: 'Kunde 10001' });
      await hv.createPool({ poolid, comment: 'Kunde 10001' });
      expect(await hv.getPool(poolid)).toEqual({ poolid, comment: 'Kunde 10001', vmids: [] });
      const { vm } = await create({ pool: poolid });
      const { vm: outside } = await create();
      expect((await hv.getPool(poolid))?.vmids).toEqual([vm.vmid]);
      expect(outside.vmid).not.toBe(vm.vmid);

      const refused = await expectHypervisorError(hv.deletePool(poolid), 'INVALID');
      expect(refused.message).toMatch(/Pool.*Server/);
      expect(await hv.getPool(poolid)).not.toBeNull();

      await hv.deleteServer(vm);
      expect((await hv.getPool(poolid))?.vmids).toEqual([]);
      await hv.deletePool(poolid);
      expect(await hv.getPool(poolid)).toBeNull();
      await hv.deletePool(poolid);
    });

    it('private network: a VNet with its subnet, a VM joins with net1 and leaves, conflicts are refused, delete', async () => {
      const n = ctx.nextVmid();
      const vnet = `ct${n % 100_000}`;
      const spec = { vnet, tag: (n % 4000) + 1, subnet: '10.20.0.0/24', gateway: '10.20.0.1', alias: 'Kunde 10001' };
      expect(await hv.getPrivateNetwork(vnet)).toBeNull();
      await hv.createPrivateNetwork(spec);
      await hv.createPrivateNetwork(spec);
      expect(await hv.getPrivateNetwork(vnet)).toMatchObject({ ...spec, zone: expect.any(String) });

      // The same VNet with other settings, another VNet with the same tag, a gateway outside the subnet.
      await expectHypervisorError(hv.createPrivateNetwork({ ...spec, subnet: '10.30.0.0/24', gateway: '10.30.0.1' }));
      await expectHypervisorError(hv.createPrivateNetwork({ ...spec, vnet: `cu${n % 100_000}` }));
      await expectHypervisorError(hv.createPrivateNetwork({ ...spec, vnet: `cv${n % 100_000}`, tag: spec.tag + 1, gateway: '10.99.0.1' }));
      expect(await hv.getPrivateNetwork(`cu${n % 100_000}`)).toBeNull();
      expect(await hv.getPrivateNetwork(`cv${n % 100_000}`)).toBeNull();

      const vm = await main();
      expect(await hv.vmDevices(vm)).toMatchObject({ privateNetwork: null });
      await hv.attachPrivateNetwork(vm, vnet);
      expect((await hv.vmDevices(vm)).privateNetwork).toBe(vnet);
      expect((await hv.currentStatus(vm)).status).toBe('running');
      await hv.detachPrivateNetwork(vm);
      expect((await hv.vmDevices(vm)).privateNetwork).toBeNull();
      await hv.detachPrivateNetwork(vm);
      // Only a VNet id: nothing else can ride along into the NIC's settings.
      await expectHypervisorError(hv.attachPrivateNetwork(vm, `${vnet},link_down=1`), 'INVALID');
      expect((await hv.vmDevices(vm)).privateNetwork).toBeNull();

      await hv.deletePrivateNetwork(vnet);
      expect(await hv.getPrivateNetwork(vnet)).toBeNull();
      await hv.deletePrivateNetwork(vnet);
    });

    it('ISO images: streamed upload with progress, listed, in the CD-ROM drive and booted first, detached, deleted', async () => {
      const filename = `contract-${ctx.nextVmid()}.iso`;
      const image = isoImage(300 * 1024);
      const progress: number[] = [];
      const uploaded = await hv.uploadIso({ node: ctx.node, filename, size: image.length, data: chunks(image, 64 * 1024) }, (p) => progress.push(p));
      expect(uploaded.volid).toMatch(new RegExp(`^[\\w.-]+:iso/${filename.replace('.', '\\.')}$`));
      expect(uploaded.size).toBe(image.length);
      expect(Math.abs(uploaded.ctime - Date.now() / 1000)).toBeLessThan(3600);
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(100);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      expect((await hv.listIsos(ctx.node)).find((i) => i.volid === uploaded.volid)).toMatchObject({ size: image.length });

      const vm = await main();
      await hv.attachIso(vm, uploaded.volid);
      expect(await hv.vmDevices(vm)).toMatchObject({ iso: uploaded.volid, bootFromIso: true });
      await hv.detachIso(vm);
      expect(await hv.vmDevices(vm)).toMatchObject({ iso: null, bootFromIso: false });
      await hv.detachIso(vm);

      await hv.deleteIso(ctx.node, uploaded.volid);
      expect((await hv.listIsos(ctx.node)).some((i) => i.volid === uploaded.volid)).toBe(false);
      await hv.deleteIso(ctx.node, uploaded.volid);
      // Only ISO images of the ISO storage: a backup or disk volume is not deleted through here.
      await expectHypervisorError(hv.deleteIso(ctx.node, 'local:backup/vzdump-qemu-100-2026_01_01-00_00_00.vma.zst'), 'INVALID');
    });

    it('ISO upload: a stream shorter or longer than announced and a wrong extension leave nothing behind', async () => {
      const image = isoImage(128 * 1024);
      const before = await hv.listIsos(ctx.node);
      const short = `short-${ctx.nextVmid()}.iso`;
      await expectHypervisorError(hv.uploadIso({ node: ctx.node, filename: short, size: image.length + 4096, data: chunks(image, 32 * 1024) }), 'INVALID');
      const long = `long-${ctx.nextVmid()}.iso`;
      await expectHypervisorError(hv.uploadIso({ node: ctx.node, filename: long, size: image.length - 4096, data: chunks(image, 32 * 1024) }), 'INVALID');
      await expectHypervisorError(hv.uploadIso({ node: ctx.node, filename: `setup-${ctx.nextVmid()}.exe`, size: image.length, data: chunks(image, 32 * 1024) }), 'INVALID');
      expect(await hv.listIsos(ctx.node)).toEqual(before);
    });

    it('delete removes the server', async () => {
      const { vm } = await create();
      await hv.deleteServer(vm);
      await expectHypervisorError(hv.currentStatus(vm), 'NOT_FOUND');
      // Deleting again is harmless.
      await hv.deleteServer(vm);
    });
  });
}
