/**
 * The fake Proxmox answers like Proxmox because it checks every request against the vendor's schema
 * (pve-api-schema.json, trimmed from pve-docs api-viewer/apidata.js), and the driver speaks that schema.
 * Raw requests show the fake's answers; driver calls show the driver's side of the same facts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HypervisorError, type CreateServerSpec, type Hypervisor } from '../hypervisor.ts';
import { startFakeProxmox, type FakeProxmox } from './fake-proxmox.ts';
import { pveSchema, parsePveFirewallPorts } from './pve-api-schema.ts';
import { proxmoxPorts } from './proxmox-firewall.ts';
import { createProxmoxHypervisor, loadWs } from './proxmox.ts';

let fake: FakeProxmox;
let hv: Hypervisor;
let nextVmid = 300;

beforeAll(async () => {
  fake = await startFakeProxmox({ taskMs: 5 });
  hv = createProxmoxHypervisor(fake.config, { retry: { attempts: 3, baseDelayMs: 5 }, timeoutMs: 2000, pollIntervalMs: 5 });
});
afterAll(async () => {
  await fake.close();
});

const token = () => `PVEAPIToken=${fake.config.tokenId}=${fake.config.tokenSecret}`;

/** A raw request to the fake, authenticated with the API token unless `auth` says otherwise. */
async function raw(method: string, path: string, params: Record<string, string> = {}, auth: 'token' | 'none' = 'token') {
  const form = new URLSearchParams(params).toString();
  const inQuery = method === 'GET' || method === 'DELETE';
  const res = await fetch(`${fake.url}/api2/json${path}${inQuery && form ? `?${form}` : ''}`, {
    method,
    headers: { ...(auth === 'token' ? { Authorization: token() } : {}), ...(inQuery ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }) },
    ...(inQuery ? {} : { body: form }),
  });
  const text = await res.text();
  return { status: res.status, statusText: res.statusText, text, json: text ? (JSON.parse(text) as { data: unknown; errors?: Record<string, string>; message?: string }) : undefined };
}

function spec(): CreateServerSpec {
  const vmid = nextVmid++;
  return { node: fake.node, vmid, name: `schema-${vmid}`, os: 'debian-12', cores: 1, memoryMb: 1024, diskGb: 10, ipv4: { address: '203.0.113.20', prefix: 24, gateway: '203.0.113.1' }, rootPassword: 'Geheim-Passwort-1' };
}

describe('the fake checks every request against the Proxmox schema', () => {
  it('records where the schema comes from: pve-docs api-viewer/apidata.js at a fixed commit', () => {
    expect(pveSchema.source).toMatchObject({ repository: 'https://github.com/proxmox/pve-docs', file: 'api-viewer/apidata.js', trimmedBy: 'tools/vendor/trim-pve-apidata.mjs' });
    expect(pveSchema.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(pveSchema.endpoints.find((e) => e.method === 'POST' && e.path === '/access/ticket')?.allowtoken).toBe(false);
  });

  it('an unknown parameter is refused with 400 and exactly Proxmox\'s error shape', async () => {
    const s = spec();
    await hv.createServer(s);
    const res = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/firewall/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22', colour: 'blue' });
    expect(res.status).toBe(400);
    expect(res.statusText).toBe('Parameter verification failed.');
    expect(res.text).toBe('{"errors":{"colour":"property is not defined in schema and the schema does not allow additional properties"},"data":null}');
    expect(fake.vms.get(s.vmid)!.firewall.rules).toEqual([]);
  });

  it('missing required parameters, wrong integer/boolean types and values outside an enum are refused with 400', async () => {
    const s = spec();
    await hv.createServer(s);
    const missing = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/firewall/rules`, { action: 'ACCEPT' });
    expect(missing.status).toBe(400);
    expect(missing.json?.errors).toEqual({ type: 'property is missing and it is not optional' });

    const integer = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/config`, { cores: 'two' });
    expect(integer.json?.errors).toEqual({ cores: "type check ('integer') failed - got 'two'" });

    // Proxmox booleans are 0/1 on the wire; "true" is not one of them.
    const boolean = await raw('PUT', `/nodes/pve1/qemu/${s.vmid}/firewall/options`, { enable: 'true' });
    expect(boolean.status).toBe(400);
    expect(boolean.json?.errors).toEqual({ enable: "type check ('boolean') failed - got 'true'" });

    const enumeration = await raw('GET', `/nodes/pve1/qemu/${s.vmid}/rrddata`, { timeframe: 'decade' });
    expect(enumeration.json?.errors).toEqual({ timeframe: "value 'decade' does not have a value in the enumeration 'hour, day, week, month, year'" });

    const pathParam = await raw('GET', '/nodes/pve1/qemu/42/status/current');
    expect(pathParam.status).toBe(400);
    expect(pathParam.json?.errors).toEqual({ vmid: 'value must have a minimum value of 100' });
  });

  it('a method or path the schema does not know answers 501 like Proxmox', async () => {
    const res = await raw('PATCH', '/nodes/pve1/qemu/100/config');
    expect(res.status).toBe(501);
    expect(res.statusText).toBe("Method 'PATCH /nodes/pve1/qemu/100/config' not implemented");
    expect((await raw('GET', '/nodes/pve1/does-not-exist')).status).toBe(501);
  });

  it('an API token on an allowtoken: 0 path is refused with 403, the same login without the token works', async () => {
    const withToken = await raw('POST', '/access/ticket', { username: fake.config.consoleUser!, password: fake.config.consolePassword! });
    expect(withToken.status).toBe(403);
    expect(withToken.json?.message).toMatch(/^Permission check failed \(URI '\/access\/ticket' not available with API token, need proper ticket\./);
    for (const endpoint of pveSchema.endpoints.filter((e) => !e.allowtoken)) {
      const res = await raw(endpoint.method, endpoint.path, {});
      expect(res.status, `${endpoint.method} ${endpoint.path}`).toBe(403);
    }

    const without = await raw('POST', '/access/ticket', { username: fake.config.consoleUser!, password: fake.config.consolePassword! }, 'none');
    expect(without.status).toBe(200);
    expect(without.json?.data).toMatchObject({ ticket: expect.stringMatching(/^PVE:/), CSRFPreventionToken: expect.any(String) });
  });

  it('refuses a port range written with "-" (Proxmox only knows "a:b"), accepts "a:b"', async () => {
    const s = spec();
    await hv.createServer(s);
    const dash = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/firewall/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '8000-8100', enable: '1' });
    expect(dash.status).toBe(400);
    expect(dash.json?.errors).toEqual({ dport: "invalid format - invalid port '8000-8100'\n" });
    const colon = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/firewall/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '8000:8100', enable: '1' });
    expect(colon.status).toBe(200);
    expect(fake.vms.get(s.vmid)!.firewall.rules.map((r) => r.dport)).toEqual(['8000:8100']);
  });

  it('firewall digests are per section: deleting a rule with the options digest is refused, with the rules digest it works', async () => {
    const s = spec();
    await hv.createServer(s);
    const fw = `/nodes/pve1/qemu/${s.vmid}/firewall`;
    await raw('POST', `${fw}/rules`, { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: '22', enable: '1' });
    const options = (await raw('GET', `${fw}/options`)).json?.data as { digest: string };
    const rules = (await raw('GET', `${fw}/rules`)).json?.data as { digest: string }[];
    expect(options.digest).not.toBe(rules[0]!.digest);

    const wrong = await raw('DELETE', `${fw}/rules/0`, { digest: options.digest });
    expect(wrong.status).toBe(500);
    expect(wrong.json?.message).toBe('detected modified configuration - file changed by other user? Try again.\n');
    expect(fake.vms.get(s.vmid)!.firewall.rules).toHaveLength(1);

    expect((await raw('DELETE', `${fw}/rules/0`, { digest: rules[0]!.digest })).status).toBe(200);
    expect(fake.vms.get(s.vmid)!.firewall.rules).toHaveLength(0);
  });
});

describe('the new virtual data center paths refuse what Proxmox refuses', () => {
  /** A raw multipart upload, fields and file parts in the given order. */
  async function rawUpload(parts: { name: string; filename?: string; value: string }[], opts: { contentType?: string; query?: string } = {}) {
    const boundary = 'XyZ123';
    const body = parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n${p.value}\r\n`).join('') + `--${boundary}--\r\n`;
    const res = await fetch(`${fake.url}/api2/json/nodes/pve1/storage/local/upload${opts.query ?? ''}`, {
      method: 'POST',
      headers: { Authorization: token(), 'Content-Type': opts.contentType ?? `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: JSON.parse(text) as { data: unknown; errors?: Record<string, string>; message?: string } };
  }

  it('pools: a pool id with a blank, a missing pool id, type without poolid, an unknown parameter', async () => {
    expect((await raw('POST', '/pools', { poolid: 'vdc 1' })).json?.errors).toEqual({ poolid: "invalid format - pool name 'vdc 1' contains invalid characters\n" });
    expect((await raw('DELETE', '/pools', {})).json?.errors).toEqual({ poolid: 'property is missing and it is not optional' });
    expect((await raw('GET', '/pools', { type: 'qemu' })).json?.errors).toEqual({ poolid: "missing property required by 'type'" });
    expect((await raw('POST', '/pools', { poolid: 'vdc-1', limit: '4' })).json?.errors).toEqual({ limit: 'property is not defined in schema and the schema does not allow additional properties' });
    // Beyond the schema: pve-manager API2/Pool.pm.
    const digit = await raw('POST', '/pools', { poolid: '1vdc' });
    expect(digit.status).toBe(500);
    expect(digit.json?.message).toBe('create pool failed: pool name must start with a letter\n');
    expect(fake.pools.size).toBe(0);
  });

  it('pools: deleting one that holds a VM is refused with Proxmox\'s message', async () => {
    await hv.createPool({ poolid: 'vdc-901' });
    const s = { ...spec(), pool: 'vdc-901' };
    await hv.createServer(s);
    const res = await raw('DELETE', '/pools', { poolid: 'vdc-901' });
    expect(res.status).toBe(500);
    expect(res.json?.message).toBe(`delete pool failed: pool 'vdc-901' is not empty (contains VM ${s.vmid})\n`);
    await hv.deleteServer(s);
    await hv.deletePool('vdc-901');
  });

  it('VNets: an id longer than 8 characters, no zone, tag 0; subnets need type=subnet and an IP gateway', async () => {
    const long = await raw('POST', '/cluster/sdn/vnets', { vnet: 'customer12', zone: 'vdc', tag: '5' });
    expect(long.status).toBe(400);
    expect(Object.keys(long.json?.errors ?? {})).toEqual(['vnet']);
    expect((await raw('POST', '/cluster/sdn/vnets', { vnet: 'vdc5', tag: '5' })).json?.errors).toEqual({ zone: 'property is missing and it is not optional' });
    expect((await raw('POST', '/cluster/sdn/vnets', { vnet: 'vdc5', zone: 'vdc', tag: '0' })).json?.errors).toEqual({ tag: 'value must have a minimum value of 1' });
    expect((await raw('GET', '/cluster/sdn/vnets/a')).status).toBe(400);
    expect((await raw('POST', '/cluster/sdn/vnets', { vnet: 'vdc5', zone: 'vdc', tag: '5' })).status).toBe(200);

    expect((await raw('POST', '/cluster/sdn/vnets/vdc5/subnets', { subnet: '10.5.0.0/24', gateway: '10.5.0.1' })).json?.errors).toEqual({ type: 'property is missing and it is not optional' });
    expect((await raw('POST', '/cluster/sdn/vnets/vdc5/subnets', { subnet: '10.5.0.0/24', type: 'subnet', gateway: 'router' })).json?.errors).toEqual({ gateway: 'invalid format - value does not look like a valid IP address\n' });
    expect((await raw('POST', '/cluster/sdn/vnets/vdc5/subnets', { subnet: '10.5.0.0', type: 'subnet' })).json?.errors).toEqual({ subnet: 'invalid format - value does not look like a valid CIDR network\n' });
    expect((await raw('DELETE', '/cluster/sdn/vnets/vdc5/subnets/vdc-10.5.0.0')).status).toBe(400);
    // pve-network VnetPlugin.pm / Zones/VlanPlugin.pm, beyond the schema.
    const sameTag = await raw('POST', '/cluster/sdn/vnets', { vnet: 'vdc6', zone: 'vdc', tag: '5' });
    expect(sameTag.json?.message).toBe('create sdn vnet object failed: 400 Parameter verification failed.\ntag: tag 5 already exist in vnet vdc5\n');
    expect((await raw('PUT', '/cluster/sdn', { reload: '1' })).json?.errors).toEqual({ reload: 'property is not defined in schema and the schema does not allow additional properties' });
    expect((await raw('DELETE', '/cluster/sdn/vnets/vdc5')).status).toBe(200);
  });

  it('uploads: only multipart, the file part must be named "filename", content must be iso|vztmpl|import, tmpfilename is the server\'s', async () => {
    const form = await raw('POST', '/nodes/pve1/storage/local/upload', { content: 'iso', filename: 'a.iso' });
    expect(form.status).toBe(500);
    expect(form.json?.message).toBe("upload 'Content-Type 'application/x-www-form-urlencoded' not implemented\n");
    const field = await rawUpload([{ name: 'content', value: 'iso' }, { name: 'file', filename: 'a.iso', value: 'CD001' }]);
    expect(field.json?.message).toBe("wrong field name 'file' for file upload, expected 'filename'\n");
    const kind = await rawUpload([{ name: 'content', value: 'images' }, { name: 'filename', filename: 'a.iso', value: 'CD001' }]);
    expect(kind.status).toBe(400);
    expect(kind.json?.errors).toEqual({ content: "value 'images' does not have a value in the enumeration 'iso, vztmpl, import'" });
    const missing = await rawUpload([{ name: 'filename', filename: 'a.iso', value: 'CD001' }]);
    expect(missing.json?.errors).toEqual({ content: 'property is missing and it is not optional' });
    const extension = await rawUpload([{ name: 'content', value: 'iso' }, { name: 'filename', filename: 'setup.exe', value: 'MZ' }]);
    expect(extension.json?.errors).toEqual({ filename: 'wrong file extension' });
    const tmp = await rawUpload([{ name: 'content', value: 'iso' }, { name: 'filename', filename: 'a.iso', value: 'CD001' }], { query: '?tmpfilename=/var/tmp/pveupload-00' });
    expect(tmp.json?.message).toBe("'tmpfilename' query parameter is not allowed for file uploads\n");
    expect(fake.isos).toEqual([]);
    const ok = await rawUpload([{ name: 'content', value: 'iso' }, { name: 'filename', filename: 'a.iso', value: 'CD001' }]);
    expect(ok.status).toBe(200);
    expect(String(ok.json?.data)).toMatch(/^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:imgcopy::/);
    await hv.waitForTask({ node: 'pve1', upid: String(ok.json?.data) });
    expect(fake.isos.map((i) => [i.volid, i.size])).toEqual([['local:iso/a.iso', 5]]);
    await hv.deleteIso('pve1', 'local:iso/a.iso');
  });

  it('the VM config refuses an unknown NIC key and a bridge parameter outside the property string', async () => {
    const s = spec();
    await hv.createServer(s);
    const res = await raw('POST', `/nodes/pve1/qemu/${s.vmid}/config`, { net1: 'virtio,bridge=vdc5,vlan=3' });
    expect(res.json?.errors).toEqual({ net1: 'invalid format - invalid key in comma-separated list property: vlan\n' });
    expect((await raw('POST', `/nodes/pve1/qemu/${s.vmid}/config`, { bridge: 'vdc5' })).status).toBe(400);
  });
});

describe('the driver speaks the schema', () => {
  it('deleteFirewallRule sends the rules digest and deletes the rule', async () => {
    const s = spec();
    await hv.createServer(s);
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '22', comment: 'SSH' });
    await hv.addFirewallRule(s, { proto: 'udp', dport: '53', comment: 'DNS' });
    // Another option changed meanwhile must not matter: only the rules list is compared.
    await hv.setFirewall(s, true);
    await hv.deleteFirewallRule(s, 1);
    expect((await hv.listFirewallRules(s)).map((r) => r.comment)).toEqual(['DNS']);
  });

  it('deleteFirewallRule of a position that does not exist is NOT_FOUND, nothing is deleted', async () => {
    const s = spec();
    await hv.createServer(s);
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '22', comment: 'SSH' });
    const err = await hv.deleteFirewallRule(s, 3).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HypervisorError);
    expect((err as HypervisorError).code).toBe('NOT_FOUND');
    expect(fake.vms.get(s.vmid)!.firewall.rules).toHaveLength(1);
  });

  it('a numeric range written "8000-8100" goes to Proxmox as "8000:8100"', async () => {
    const s = spec();
    await hv.createServer(s);
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '8000-8100,443', comment: 'Spiele' });
    expect(fake.vms.get(s.vmid)!.firewall.rules[0]).toMatchObject({ dport: '8000:8100,443', enable: 1, type: 'in', action: 'ACCEPT' });
    expect(proxmoxPorts('8000 - 8100, 22,https')).toBe('8000:8100,22,https');
    expect(proxmoxPorts(undefined)).toBeUndefined();
  });

  it.runIf(loadWs() !== null)('the console login (POST /access/ticket) goes out without the API token and the console opens', async () => {
    const s = spec();
    await hv.createServer(s);
    const before = fake.calls.length;
    const con = await hv.openConsole(s);
    con.close();
    const login = fake.calls.slice(before).filter((c) => c.op === 'ticket');
    expect(login).toEqual([expect.objectContaining({ method: 'POST', path: '/access/ticket', auth: 'none' })]);
    expect(fake.calls.slice(before).find((c) => c.op === 'termproxy')?.auth).toBe('ticket');
  });
});

describe('the schema holds exactly what the driver sends', () => {
  it('every Hypervisor operation goes through schema endpoints, and every schema endpoint is used', async () => {
    const s = spec();
    const before = fake.calls.length;
    await hv.listNodes();
    await hv.createServer(s);
    await hv.currentStatus(s);
    await hv.usageHistory(s, 'hour');
    for (const action of ['stop', 'start', 'reboot', 'shutdown'] as const) await hv.waitForTask(await hv.power(s, action));
    await hv.waitForTask(await hv.power(s, 'start'));
    await hv.exec(s, ['echo', 'ok']);
    await hv.setRootPassword(s, 'Neues-Passwort-2');
    await hv.setSshKeys(s, 'ssh-ed25519 AAAA new@key');
    await hv.resizeServer(s, { cores: 2, memoryMb: 2048, diskGb: 20 });
    await hv.setFirewall(s, true);
    await hv.addFirewallRule(s, { proto: 'tcp', dport: '22', comment: 'SSH' });
    await hv.listFirewallRules(s);
    await hv.deleteFirewallRule(s, 0);
    await hv.waitForTask(await hv.createBackup(s));
    const [backup] = await hv.listBackups(s);
    await hv.waitForTask(await hv.restoreBackup(s, backup!.volid));
    await hv.deleteBackup(s, backup!.volid);
    if (loadWs()) (await hv.openConsole(s)).close();
    await hv.deleteServer(s);

    await hv.createPool({ poolid: 'vdc-900' });
    const member = { ...spec(), pool: 'vdc-900' };
    await hv.createServer(member);
    await hv.getPool('vdc-900');
    await hv.createPrivateNetwork({ vnet: 'vdc900', tag: 900, subnet: '10.90.0.0/24', gateway: '10.90.0.1' });
    await hv.getPrivateNetwork('vdc900');
    await hv.attachPrivateNetwork(member, 'vdc900');
    await hv.detachPrivateNetwork(member);
    const iso = await hv.uploadIso({ node: fake.node, filename: 'schema.iso', size: 4, data: (async function* () { yield Buffer.from('CD01'); })() });
    await hv.listIsos(fake.node);
    await hv.attachIso(member, iso.volid);
    await hv.vmDevices(member);
    await hv.detachIso(member);
    await hv.deleteIso(fake.node, iso.volid);
    await hv.deletePrivateNetwork('vdc900');
    await hv.deleteServer(member);
    await hv.deletePool('vdc-900');

    const seen = fake.calls.slice(before);
    expect(seen.filter((c) => !c.endpoint), 'calls outside the schema').toEqual([]);
    const used = new Set(seen.map((c) => c.endpoint));
    const consoleEndpoints = ['POST /access/ticket', 'POST /nodes/{node}/qemu/{vmid}/termproxy', 'GET /nodes/{node}/qemu/{vmid}/vncwebsocket'];
    const schema = pveSchema.endpoints.map((e) => `${e.method} ${e.path}`).filter((e) => loadWs() || !consoleEndpoints.includes(e));
    expect([...used].sort()).toEqual(schema.sort());
  });
});

describe('pve-firewall port syntax', () => {
  it('accepts numbers, a:b ranges, lists and service names; refuses a-b, backwards ranges and more than 15 numbers', () => {
    for (const ok of ['22', '80,443', '8000:8100', 'ssh', '0:65535']) expect(() => parsePveFirewallPorts(ok, true), ok).not.toThrow();
    expect(() => parsePveFirewallPorts('8000-8100', true)).toThrow("invalid port '8000-8100'");
    expect(() => parsePveFirewallPorts('9000:8000', true)).toThrow("backwards range '9000:8000' not allowed, did you mean '8000:9000'?");
    expect(() => parsePveFirewallPorts('65536', true)).toThrow("invalid port '65536'");
    expect(() => parsePveFirewallPorts('80,,443', true)).toThrow('extraneous commas in list');
    expect(() => parsePveFirewallPorts(Array.from({ length: 16 }, (_v, i) => String(i + 1)).join(','), true)).toThrow('too many entries');
  });
});
