import { execFileSync } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProxmoxConfig } from '../../../env.ts';
import { describeHypervisorContract } from '../hypervisor.contract.ts';
import { HypervisorError, hypervisorMessages, type CreateServerSpec, type Hypervisor } from '../hypervisor.ts';
import { startFakeProxmox, type FakeProxmox } from './fake-proxmox.ts';
import { createProxmoxHypervisor, loadWs, type ProxmoxOptions } from './proxmox.ts';

let fake: FakeProxmox;
let nextVmid = 100;

beforeAll(async () => {
  fake = await startFakeProxmox({ taskMs: 10 });
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.clearFaults();
  fake.setTaskDuration(10);
});

function driver(options: ProxmoxOptions = {}, config: Partial<ProxmoxConfig> = {}): Hypervisor {
  return createProxmoxHypervisor({ ...fake.config, ...config }, { retry: { attempts: 5, baseDelayMs: 5 }, timeoutMs: 2000, pollIntervalMs: 5, ...options });
}

function spec(overrides: Partial<CreateServerSpec> = {}): CreateServerSpec {
  const vmid = overrides.vmid ?? nextVmid++;
  return {
    node: fake.node,
    vmid,
    name: `srv-${vmid}`,
    os: 'debian-12',
    cores: 2,
    memoryMb: 4096,
    diskGb: 40,
    ipv4: { address: '203.0.113.10', prefix: 24, gateway: '203.0.113.1' },
    ipv6: { address: '2001:db8::10', prefix: 64, gateway: '2001:db8::1' },
    rootPassword: 'Geheim-Passwort-1',
    sshKeys: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@example\nssh-rsa AAAAB3Nza+/= other@host',
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<HypervisorError> {
  const err = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HypervisorError);
  return err as HypervisorError;
}

describe('proxmox driver against the fake Proxmox VE API', () => {
  it('creates a server from the template: cloud-init, NIC with firewall, grown disk, anti-spoofing ipset, running', async () => {
    const s = spec();
    const progress: number[] = [];
    await driver().createServer(s, (p) => progress.push(p));

    const vm = fake.vms.get(s.vmid)!;
    expect(vm.status).toBe('running');
    expect(vm.config).toMatchObject({ name: s.name, cores: 2, memory: 4096, ciuser: 'root', cipassword: s.rootPassword });
    expect(vm.config.sshkeys).toBe(encodeURIComponent(s.sshKeys!));
    expect(vm.config.ipconfig0).toBe('ip=203.0.113.10/24,gw=203.0.113.1,ip6=2001:db8::10/64,gw6=2001:db8::1');
    expect(vm.config.net0).toMatch(/^virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr0,firewall=1$/);
    expect(vm.config.scsi0).toMatch(/size=40G/);
    expect(vm.firewall.options).toMatchObject({ ipfilter: 1 });
    expect(vm.firewall.ipsets.get('ipfilter-net0')?.map((e) => e.cidr)).toEqual(['203.0.113.10', '2001:db8::10']);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('refuses an OS without a configured template with a German message', async () => {
    const err = await rejection(driver({}, { templates: {} }).createServer(spec()));
    expect(err.code).toBe('INVALID');
    expect(err.message).toMatch(/Vorlage/);
  });

  it('a task ending with "can\'t lock file … got timeout" fails with TASK_FAILED carrying the text', async () => {
    const s = spec();
    await driver().createServer(s);
    const hv = driver();
    const task = await hv.power(s, 'stop');
    await hv.waitForTask(task);
    fake.inject({ op: 'start', kind: 'lockTimeout', times: 1 });
    const start = await hv.power(s, 'start');
    const err = await rejection(hv.waitForTask(start));
    expect(err.code).toBe('TASK_FAILED');
    expect(err.message).toBe(hypervisorMessages.TASK_FAILED);
    expect(err.detail).toBe(`can't lock file '/var/lock/qemu-server/lock-${s.vmid}.conf' - got timeout`);
    expect(await hv.taskStatus(start)).toEqual({ status: 'failed', error: err.detail });
  });

  it('a creation whose clone task fails surfaces TASK_FAILED (never a running server)', async () => {
    const s = spec();
    fake.inject({ op: 'clone', kind: 'lockTimeout', times: 1 });
    const err = await rejection(driver().createServer(s));
    expect(err.code).toBe('TASK_FAILED');
    expect(err.detail).toMatch(/can't lock file .* got timeout/);
    expect(fake.vms.get(s.vmid)?.status).not.toBe('running');
  });

  it('"VM is locked" three times, then OK: succeeds after bounded retries', async () => {
    const s = spec();
    await driver().createServer(s);
    fake.inject({ path: new RegExp(`^POST /nodes/pve1/qemu/${s.vmid}/status/stop$`), kind: 'locked', times: 3 });
    const before = fake.calls.length;
    const hv = driver();
    await hv.waitForTask(await hv.power(s, 'stop'));
    const stopCalls = fake.calls.slice(before).filter((c) => c.op === 'stop');
    expect(stopCalls).toHaveLength(4);
    expect(fake.vms.get(s.vmid)!.status).toBe('stopped');
  });

  it('a permanent lock ends with LOCKED and the German message after the configured attempts', async () => {
    const s = spec();
    await driver().createServer(s);
    fake.inject({ op: 'stop', kind: 'locked' });
    const before = fake.calls.length;
    const err = await rejection(driver({ retry: { attempts: 3, baseDelayMs: 5 } }).power(s, 'stop'));
    expect(err.code).toBe('LOCKED');
    expect(err.message).toBe(hypervisorMessages.LOCKED);
    expect(fake.calls.slice(before).filter((c) => c.op === 'stop')).toHaveLength(3);
  });

  it('a hanging node gives TIMEOUT within the budget', async () => {
    fake.inject({ op: 'nodes', kind: 'hang' });
    const started = Date.now();
    const err = await rejection(driver({ timeoutMs: 150 }).listNodes());
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(hypervisorMessages.TIMEOUT);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a waitForTask that never ends gives TIMEOUT within its budget', async () => {
    const s = spec();
    await driver().createServer(s);
    fake.setTaskDuration(60_000);
    const hv = driver();
    const task = await hv.power(s, 'reboot');
    const started = Date.now();
    const err = await rejection(hv.waitForTask(task, { timeoutMs: 100 }));
    expect(err.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waitForTask rides out a short network blip while polling', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    fake.setTaskDuration(50);
    const task = await hv.power(s, 'reboot');
    fake.inject({ op: 'task', kind: 'status596', times: 1 });
    fake.inject({ op: 'task', kind: 'reset', times: 1 });
    await hv.waitForTask(task);
    expect(await hv.taskStatus(task)).toEqual({ status: 'ok' });
  });

  it('a connection reset gives UNAVAILABLE', async () => {
    fake.inject({ op: 'nodes', kind: 'reset', times: 1 });
    const err = await rejection(driver().listNodes());
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toBe(hypervisorMessages.UNAVAILABLE);
  });

  it('HTTP 596 (proxying to another node failed) gives UNAVAILABLE', async () => {
    fake.inject({ op: 'nodes', kind: 'status596', times: 1 });
    const err = await rejection(driver().listNodes());
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.detail).toMatch(/596/);
  });

  it('a refused connection gives UNAVAILABLE', async () => {
    const err = await rejection(driver({}, { url: 'http://127.0.0.1:1' }).listNodes());
    expect(err.code).toBe('UNAVAILABLE');
  });

  it('the connection drops after the clone was created: the retry finds the VM, exactly one exists', async () => {
    const s = spec();
    fake.inject({ kind: 'dropAfterClone', times: 1 });
    fake.setTaskDuration(50);
    const clonesBefore = fake.cloneCount;
    await driver().createServer(s);
    expect(fake.cloneCount - clonesBefore).toBe(1);
    expect(fake.servers().filter((vm) => vm.config.name === s.name)).toHaveLength(1);
    expect(fake.vms.get(s.vmid)!.status).toBe('running');
  });

  it('a second createServer for the same spec (caller retry) does not clone again', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    const clonesBefore = fake.cloneCount;
    await hv.createServer(s);
    expect(fake.cloneCount).toBe(clonesBefore);
  });

  it('refuses to take over a VM id that belongs to another server', async () => {
    const s = spec();
    await driver().createServer(s);
    const err = await rejection(driver().createServer({ ...s, name: 'someone-else' }));
    expect(err.code).toBe('INVALID');
  });

  it('20 parallel creations give 20 distinct VMs on the node', async () => {
    const specs = Array.from({ length: 20 }, () => spec());
    const clonesBefore = fake.cloneCount;
    const hv = driver();
    await Promise.all(specs.map((s) => hv.createServer(s)));
    const ids = specs.map((s) => fake.vms.get(s.vmid)?.vmid);
    expect(new Set(ids).size).toBe(20);
    expect(fake.cloneCount - clonesBefore).toBe(20);
    expect(specs.every((s) => fake.vms.get(s.vmid)!.status === 'running' && fake.vms.get(s.vmid)!.config.name === s.name)).toBe(true);
  });

  it('start on a running server is a harmless no-op', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    const task = await hv.power(s, 'start');
    await hv.waitForTask(task);
    expect(await hv.taskStatus(task)).toEqual({ status: 'ok' });
    expect((await hv.currentStatus(s)).status).toBe('running');
  });

  it('never puts the token into an error', async () => {
    const errors: HypervisorError[] = [];
    errors.push(await rejection(driver({}, { tokenSecret: 'wrong-secret' }).listNodes()));
    for (const kind of ['reset', 'status596', 'hang', 'locked'] as const) {
      fake.inject({ op: 'nodes', kind });
      errors.push(await rejection(driver({ timeoutMs: 100, retry: { attempts: 2, baseDelayMs: 1 } }).listNodes()));
      fake.clearFaults();
    }
    errors.push(await rejection(driver().currentStatus({ node: fake.node, vmid: 4242 })));
    errors.push(await rejection(driver().resizeServer({ node: fake.node, vmid: 4242 }, { cores: 1, memoryMb: 512, diskGb: 10 })));
    errors.push(await rejection(driver({}, { url: 'http://127.0.0.1:1' }).listNodes()));
    expect(errors.map((e) => e.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE', 'TIMEOUT', 'LOCKED', 'NOT_FOUND', 'NOT_FOUND', 'UNAVAILABLE']);
    for (const e of errors) {
      const everything = `${e.message} ${e.detail ?? ''} ${String(e)} ${e.stack ?? ''} ${JSON.stringify(e)}`;
      expect(everything).not.toContain(fake.config.tokenSecret);
      expect(everything).not.toContain('PVEAPIToken');
    }
  });

  it('maps a 400 to INVALID with the parameter errors in the detail', async () => {
    const s = spec();
    await driver().createServer(s);
    const err = await rejection(driver().addFirewallRule(s, { proto: 'tcp', dport: 'not-a-port', comment: 'x' }));
    expect(err.code).toBe('INVALID');
    // Proxmox's format check (pve-firewall parse_port_name_number_or_range) through JSONSchema check_prop.
    expect(err.detail).toMatch(/dport: invalid format - invalid port 'not-a-port'/);
  });

  it('resizes: cores and memory change, the disk only grows', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    await hv.resizeServer(s, { cores: 4, memoryMb: 8192, diskGb: 80 });
    expect(fake.vms.get(s.vmid)!.config).toMatchObject({ cores: 4, memory: 8192 });
    expect(fake.vms.get(s.vmid)!.config.scsi0).toMatch(/size=80G/);
    const err = await rejection(hv.resizeServer(s, { cores: 4, memoryMb: 8192, diskGb: 20 }));
    expect(err.code).toBe('INVALID');
    expect(err.message).toMatch(/verkleinert/);
  });

  it('reports status, usage history and nodes', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    const status = await hv.currentStatus(s);
    expect(status).toMatchObject({ status: 'running', cpus: 2, maxmem: 4096 * 1024 ** 2, maxdisk: 40 * 1024 ** 3, disk: 0 });
    const history = await hv.usageHistory(s, 'hour');
    expect(history.length).toBeGreaterThan(60);
    expect(history.every((p) => Number.isFinite(p.cpu) && Number.isFinite(p.mem))).toBe(true);
    expect(await hv.listNodes()).toEqual([expect.objectContaining({ node: 'pve1', status: 'online', maxcpu: 32 })]);
  });

  it('deletes a running server (stop, purge) and treats a missing one as deleted', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    await hv.deleteServer(s);
    expect(fake.vms.has(s.vmid)).toBe(false);
    await hv.deleteServer(s);
    expect(fake.calls.some((c) => c.method === 'DELETE' && c.path === `/nodes/pve1/qemu/${s.vmid}`)).toBe(true);
  });

  it('never deletes an OS template', async () => {
    const err = await rejection(driver().deleteServer({ node: fake.node, vmid: fake.config.templates['debian-12']! }));
    expect(err.code).toBe('INVALID');
    expect(fake.vms.has(fake.config.templates['debian-12']!)).toBe(true);
  });

  it('reinstalls with the same vmid and a fresh disk', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    fake.vms.get(s.vmid)!.config.marker = 'old';
    const progress: number[] = [];
    await hv.reinstallServer({ ...s, os: 'ubuntu-24.04' }, (p) => progress.push(p));
    const vm = fake.vms.get(s.vmid)!;
    expect(vm.config.marker).toBeUndefined();
    expect(vm.status).toBe('running');
    expect(progress.at(-1)).toBe(100);
  });

  it('backs up, lists, restores and deletes backups', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    await hv.waitForTask(await hv.createBackup(s));
    const [backup] = await hv.listBackups(s);
    expect(backup?.volid).toMatch(new RegExp(`^local:backup/vzdump-qemu-${s.vmid}-\\d{4}_\\d{2}_\\d{2}-\\d{2}_\\d{2}_\\d{2}\\.vma\\.zst$`));
    fake.vms.get(s.vmid)!.config.cores = 7;
    await hv.waitForTask(await hv.restoreBackup(s, backup!.volid));
    expect(fake.vms.get(s.vmid)!.config.cores).toBe(2);
    expect(fake.vms.get(s.vmid)!.status).toBe('running');
    await hv.deleteBackup(s, backup!.volid);
    expect(await hv.listBackups(s)).toEqual([]);
  });

  it('manages firewall rules with positions and digests', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    await hv.setFirewall(s, true);
    expect(fake.vms.get(s.vmid)!.firewall.options.enable).toBe(1);
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '22', comment: 'SSH' });
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '80,443', comment: 'Web' });
    await hv.addFirewallRule(s, { proto: 'all', comment: 'Alles' });
    const rules = await hv.listFirewallRules(s);
    expect(rules.map((r) => [r.pos, r.comment, r.proto, r.dport, r.enable, r.action, r.type])).toEqual([
      [0, 'Alles', 'all', undefined, true, 'ACCEPT', 'in'],
      [1, 'Web', 'tcp', '80,443', true, 'ACCEPT', 'in'],
      [2, 'SSH', 'tcp', '22', true, 'ACCEPT', 'in'],
    ]);
    await hv.deleteFirewallRule(s, 1);
    expect((await hv.listFirewallRules(s)).map((r) => r.comment)).toEqual(['Alles', 'SSH']);
    await hv.setFirewall(s, false);
    expect(fake.vms.get(s.vmid)!.firewall.options.enable).toBe(0);
  });

  it('runs commands and sets the root password through the guest agent, keys through cloud-init', async () => {
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    expect(await hv.exec(s, ['echo', 'hallo', 'welt'])).toEqual({ exitCode: 0, stdout: 'hallo welt\n' });
    expect((await hv.exec(s, ['false'])).exitCode).toBe(1);
    await hv.setRootPassword(s, 'Neues-Passwort-2');
    expect(fake.vms.get(s.vmid)!.rootPassword).toBe('Neues-Passwort-2');
    await hv.setSshKeys(s, 'ssh-ed25519 AAAA new@key');
    expect(fake.vms.get(s.vmid)!.config.sshkeys).toBe(encodeURIComponent('ssh-ed25519 AAAA new@key'));
  });

  it.runIf(loadWs() !== null)('opens a console over the termproxy websocket', async () => {
    expect(fake.hasWebSocket).toBe(true);
    const s = spec();
    const hv = driver();
    await hv.createServer(s);
    const con = await hv.openConsole(s);
    let output = '';
    con.onData((d) => (output += d));
    await expect.poll(() => output).toContain(`root@${s.name}:~# `);
    con.resize(120, 40);
    con.write('hostname\r');
    await expect.poll(() => output).toContain(`hostname\r\n${s.name}\r\n`);
    const closed = new Promise<void>((resolve) => con.onClose(resolve));
    con.write('exit\r');
    await closed;
  });
});

describe('virtual data center on Proxmox', () => {
  const image = (size: number) => {
    const bytes = Buffer.alloc(size, 0x33);
    bytes.write('\x01CD001\x01', 0x8000, 'latin1');
    return bytes;
  };
  async function* pieces(bytes: Buffer, size: number) {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }

  it('a VM is cloned into its pool (the pool parameter of the clone) and leaves it when destroyed', async () => {
    const hv = driver();
    await hv.createPool({ poolid: 'vdc-77', comment: 'Kunde 77' });
    const s = spec({ pool: 'vdc-77' });
    await hv.createServer(s);
    const clone = fake.calls.filter((c) => c.op === 'clone').at(-1)!;
    expect(clone.endpoint).toBe('POST /nodes/{node}/qemu/{vmid}/clone');
    expect([...fake.pools.get('vdc-77')!.vms]).toEqual([s.vmid]);
    await hv.deleteServer(s);
    expect(fake.pools.get('vdc-77')!.vms.size).toBe(0);
    await hv.deletePool('vdc-77');
    expect(fake.pools.has('vdc-77')).toBe(false);
  });

  it('the private network is a VNet in the configured zone with a typed subnet, applied once; net1 is virtio on it with the firewall', async () => {
    const hv = driver();
    const applies = fake.sdnApplies;
    await hv.createPrivateNetwork({ vnet: 'vdc78', tag: 78, subnet: '10.78.0.0/24', gateway: '10.78.0.1' });
    expect(fake.vnets.get('vdc78')).toEqual({ zone: 'vdc', tag: 78 });
    expect([...fake.subnets.entries()].find(([, sn]) => sn.vnet === 'vdc78')).toEqual(['vdc-10.78.0.0-24', { vnet: 'vdc78', cidr: '10.78.0.0/24', gateway: '10.78.0.1', zone: 'vdc' }]);
    expect(fake.sdnApplies).toBe(applies + 1);
    expect(fake.runningVnets.has('vdc78')).toBe(true);

    const s = spec();
    await hv.createServer(s);
    await hv.attachPrivateNetwork(s, 'vdc78');
    expect(fake.vms.get(s.vmid)!.config.net1).toBe('virtio,bridge=vdc78,firewall=1');
    await hv.detachPrivateNetwork(s);
    expect(fake.vms.get(s.vmid)!.config.net1).toBeUndefined();

    await hv.deletePrivateNetwork('vdc78');
    expect(fake.vnets.has('vdc78')).toBe(false);
    expect(fake.runningVnets.has('vdc78')).toBe(false);
  });

  it('a running VM cannot join a VNet that was never applied (the bridge does not exist on the node)', async () => {
    const hv = driver();
    const s = spec();
    await hv.createServer(s);
    const err = await rejection(hv.attachPrivateNetwork(s, 'ghost1'));
    expect(err.detail).toMatch(/bridge 'ghost1' does not exist/);
    expect(fake.vms.get(s.vmid)!.config.net1).toBeUndefined();
  });

  it('the upload is one multipart body (content, then the file part named "filename") and arrives byte for byte', async () => {
    const hv = driver();
    const bytes = image(200 * 1024 + 17);
    const iso = await hv.uploadIso({ node: fake.node, filename: 'Debian 12 (netinst).iso', size: bytes.length, data: pieces(bytes, 50_000) });
    // pve-storage normalize_content_filename.
    expect(iso.volid).toBe('local:iso/Debian_12__netinst_.iso');
    expect(fake.isos.find((i) => i.volid === iso.volid)?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(fake.calls.filter((c) => c.op === 'upload').at(-1)).toMatchObject({ endpoint: 'POST /nodes/{node}/storage/{storage}/upload', auth: 'token' });
    await hv.deleteIso(fake.node, iso.volid);
  });

  it('a slow but steady upload outlasts the request timeout; a stalled one times out and leaves nothing', async () => {
    const hv = driver({ timeoutMs: 300 });
    const bytes = image(60_000);
    async function* slow(pauseMs: number[]) {
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, pauseMs[i] ?? 0));
        yield bytes.subarray(i * 10_000, (i + 1) * 10_000);
      }
    }
    const started = Date.now();
    const iso = await hv.uploadIso({ node: fake.node, filename: 'slow.iso', size: bytes.length, data: slow([100, 100, 100, 100, 100, 100]) });
    expect(Date.now() - started).toBeGreaterThan(300);
    expect(iso.size).toBe(bytes.length);
    await hv.deleteIso(fake.node, iso.volid);

    const err = await rejection(hv.uploadIso({ node: fake.node, filename: 'stalled.iso', size: bytes.length, data: slow([0, 0, 800]) }));
    expect(err.code).toBe('TIMEOUT');
    expect(fake.isos.some((i) => i.volid === 'local:iso/stalled.iso')).toBe(false);
  });

  it('an upload the imgcopy task refuses leaves nothing; the error says so', async () => {
    const hv = driver();
    fake.inject({ op: 'upload', kind: 'taskError', text: "checksum mismatch: got 'ab' != expect 'cd'", times: 1 });
    const err = await rejection(hv.uploadIso({ node: fake.node, filename: 'broken.iso', size: 40_000, data: pieces(image(40_000), 10_000) }));
    expect(err.code).toBe('TASK_FAILED');
    expect(fake.isos.some((i) => i.volid === 'local:iso/broken.iso')).toBe(false);
  });

  it('the ISO goes into ide2, or into the next IDE slot when the cloud-init drive sits on ide2; boot order follows', async () => {
    const hv = driver();
    const bytes = image(40_000);
    const iso = await hv.uploadIso({ node: fake.node, filename: 'rescue.iso', size: bytes.length, data: pieces(bytes, 10_000) });
    const s = spec();
    await hv.createServer(s);
    // The template's cloud-init drive is on ide2 (pve-docs qm-cloud-init.adoc): it stays.
    expect(fake.vms.get(s.vmid)!.config.ide2).toMatch(/cloudinit/);
    await hv.attachIso(s, iso.volid);
    expect(fake.vms.get(s.vmid)!.config).toMatchObject({ ide2: expect.stringMatching(/cloudinit/), ide0: `${iso.volid},media=cdrom`, boot: 'order=ide0;scsi0' });
    await hv.detachIso(s);
    expect(fake.vms.get(s.vmid)!.config).toMatchObject({ ide0: 'none,media=cdrom', boot: 'order=scsi0' });

    const plain = spec();
    await hv.createServer(plain);
    delete fake.vms.get(plain.vmid)!.config.ide2;
    await hv.attachIso(plain, iso.volid);
    expect(fake.vms.get(plain.vmid)!.config).toMatchObject({ ide2: `${iso.volid},media=cdrom`, boot: 'order=ide2;scsi0' });
    await hv.detachIso(plain);
    expect(fake.vms.get(plain.vmid)!.config).toMatchObject({ ide2: 'none,media=cdrom', boot: 'order=scsi0' });
  });
});

describe('certificate pinning', () => {
  let dir: string | undefined;
  let server: https.Server | undefined;
  let fingerprint = '';
  let requests = 0;
  let port = 0;

  beforeAll(async () => {
    // Node cannot self-sign without a package; use the openssl CLI when present, otherwise skip.
    try {
      dir = mkdtempSync(path.join(tmpdir(), 'pve-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=pve1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    } catch {
      return;
    }
    const cert = readFileSync(path.join(dir, 'cert.pem'));
    fingerprint = new X509Certificate(cert).fingerprint256;
    server = https.createServer({ cert, key: readFileSync(path.join(dir, 'key.pem')) }, (_req, res) => {
      requests++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data: [{ node: 'pve1', status: 'online' }] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('talks to a node whose certificate matches the pinned fingerprint', async (ctx) => {
    if (!server) return ctx.skip();
    const hv = createProxmoxHypervisor({ ...fake.config, url: `https://127.0.0.1:${port}`, fingerprint: fingerprint.toLowerCase() }, { timeoutMs: 2000 });
    expect((await hv.listNodes())[0]?.node).toBe('pve1');
  });

  it('refuses a mismatching certificate before sending anything (the token never leaves)', async (ctx) => {
    if (!server) return ctx.skip();
    const before = requests;
    const wrong = fingerprint.replace(/^[0-9A-F]{2}/, (b) => (b === '00' ? '01' : '00'));
    const hv = createProxmoxHypervisor({ ...fake.config, url: `https://127.0.0.1:${port}`, fingerprint: wrong }, { timeoutMs: 2000 });
    const err = await rejection(hv.listNodes());
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.detail).toMatch(/FINGERPRINT_MISMATCH/);
    expect(requests).toBe(before);
  });
});

describeHypervisorContract('proxmox against the fake', async () => {
  const contractFake = await startFakeProxmox({ taskMs: 10 });
  let vmid = 1000;
  return {
    hypervisor: createProxmoxHypervisor(contractFake.config, { retry: { attempts: 5, baseDelayMs: 5 }, timeoutMs: 5000, pollIntervalMs: 5 }),
    node: contractFake.node,
    nextVmid: () => vmid++,
    cleanup: () => contractFake.close(),
    capabilities: { console: contractFake.hasWebSocket },
    taskTimeoutMs: 10_000,
  };
});
