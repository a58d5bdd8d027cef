import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
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
