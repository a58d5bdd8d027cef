import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { firewallMessages } from '@hp/contract';
import { describeEachDatabase, createUser } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { servers, serverAccess } from '../../db/schema/index.ts';


type Rule = { id: string; pos: number; fingerprint: string; protocol: string; port: string; description: string };

describeEachDatabase('servers: firewall', (ctx) => {
  const url = (id: string, rest = '') => `/api/servers/${id}/firewall${rest}`;
  const add = (id: string, auth: Record<string, string>, payload: unknown) => ctx().app.inject({ method: 'POST', url: url(id, '/rules'), headers: auth, payload: payload as object });

  it('adds rules (newest first), lists them and deletes by position plus fingerprint; a stale fingerprint is refused', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };

    const initial = await ctx().app.inject({ method: 'GET', url: url(server.id), headers: owner.auth });
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({ enabled: true, rules: [] });

    const web = await add(server.id, owner.auth, { protocol: 'tcp', port: '80, 443', description: 'Webserver' });
    expect(web.statusCode).toBe(201);
    expect(web.json().message).toBe(firewallMessages.created);
    expect((await add(server.id, owner.auth, { protocol: 'udp', port: '8000-8080', description: 'Spiele' })).statusCode).toBe(201);
    expect((await add(server.id, owner.auth, { protocol: 'icmp', port: 'any', description: 'Ping' })).statusCode).toBe(201);

    const list = await ctx().app.inject({ method: 'GET', url: url(server.id), headers: owner.auth });
    const rules = list.json().rules as Rule[];
    expect(rules.map((r) => [r.pos, r.protocol, r.port, r.description])).toEqual([
      [0, 'icmp', 'any', 'Ping'],
      [1, 'udp', '8000-8080', 'Spiele'],
      [2, 'tcp', '80,443', 'Webserver'],
    ]);
    // On the host: Proxmox range syntax, no dport for 'any'.
    const host = await ctx().app.deps.hypervisor.listFirewallRules(vm);
    expect(host.map((r) => [r.proto, r.dport, r.comment])).toEqual([['icmp', undefined, 'Ping'], ['udp', '8000:8080', 'Spiele'], ['tcp', '80,443', 'Webserver']]);

    // A stale list: the client still thinks "Spiele" is at position 1, but another rule was added meanwhile.
    const spiele = rules[1]!;
    expect((await add(server.id, owner.auth, { protocol: 'tcp', port: '22', description: 'SSH' })).statusCode).toBe(201);
    const stale = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/rules/${spiele.pos}?fingerprint=${spiele.fingerprint}`), headers: owner.auth });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('FIREWALL_STALE');
    expect(await ctx().app.deps.hypervisor.listFirewallRules(vm)).toHaveLength(4);

    const fresh = (await ctx().app.inject({ method: 'GET', url: url(server.id), headers: owner.auth })).json().rules as Rule[];
    const target = fresh.find((r) => r.description === 'Spiele')!;
    expect(target.pos).toBe(2);
    const del = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/rules/${target.pos}?fingerprint=${target.fingerprint}`), headers: owner.auth });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(firewallMessages.deleted);
    expect((del.json().rules as Rule[]).map((r) => r.description)).toEqual(['SSH', 'Ping', 'Webserver']);

    const missing = await ctx().app.inject({ method: 'DELETE', url: url(server.id, `/rules/9?fingerprint=${target.fingerprint}`), headers: owner.auth });
    expect(missing.statusCode).toBe(404);
    const noPrint = await ctx().app.inject({ method: 'DELETE', url: url(server.id, '/rules/0'), headers: owner.auth });
    expect(noPrint.statusCode).toBe(400);
  });

  it('rejects bad ports, protocols and empty descriptions with German messages', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const cases: [unknown, string][] = [
      [{ protocol: 'tcp', port: '0', description: 'x' }, firewallMessages.portInvalid],
      [{ protocol: 'tcp', port: '65536', description: 'x' }, firewallMessages.portInvalid],
      [{ protocol: 'tcp', port: '80;443', description: 'x' }, firewallMessages.portInvalid],
      [{ protocol: 'tcp', port: 'http', description: 'x' }, firewallMessages.portInvalid],
      [{ protocol: 'tcp', port: '8080-8000', description: 'x' }, firewallMessages.portRange],
      [{ protocol: 'tcp', port: '80-80', description: 'x' }, firewallMessages.portRange],
      [{ protocol: 'tcp', port: Array.from({ length: 16 }, (_, i) => String(i + 1)).join(','), description: 'x' }, firewallMessages.portTooMany],
      [{ protocol: 'tcp', port: '', description: 'x' }, firewallMessages.portRequired],
      [{ protocol: 'icmp', port: '80', description: 'x' }, firewallMessages.portNotAllowed],
      [{ protocol: 'gre', port: '1-2', description: 'x' }, firewallMessages.portNotAllowed],
      [{ protocol: 'sctp', port: '80', description: 'x' }, firewallMessages.protocolInvalid],
      [{ protocol: 'tcp', port: '80', description: '   ' }, firewallMessages.descriptionRequired],
      [{ protocol: 'tcp', port: '80' }, firewallMessages.descriptionRequired],
    ];
    for (const [payload, message] of cases) {
      const res = await add(server.id, owner.auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message, JSON.stringify(payload)).toBe(message);
    }
    // 15 parts are fine, ranges count as one part.
    const fifteen = await add(server.id, owner.auth, { protocol: 'tcp', port: [...Array.from({ length: 14 }, (_, i) => String(i + 1)), '100-200'].join(','), description: 'Viele' });
    expect(fifteen.statusCode).toBe(201);
    expect(await ctx().app.deps.hypervisor.listFirewallRules({ node: node.name, vmid: server.vmid })).toHaveLength(1);
  });

  it('refuses a rule identical to an existing one (same direction, action, protocol and ports) with a German 409', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };
    expect((await add(server.id, owner.auth, { protocol: 'tcp', port: '80, 443', description: 'Webserver' })).statusCode).toBe(201);

    // The same ports in another order, another spelling or under another description are the same rule.
    for (const payload of [
      { protocol: 'tcp', port: '80,443', description: 'Webserver' },
      { protocol: 'tcp', port: '443, 080', description: 'Noch einmal' },
    ]) {
      const res = await add(server.id, owner.auth, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'FIREWALL_DUPLICATE', message: firewallMessages.duplicate });
    }
    expect((await add(server.id, owner.auth, { protocol: 'icmp', port: 'any', description: 'Ping' })).statusCode).toBe(201);
    const again = await add(server.id, owner.auth, { protocol: 'icmp', port: 'any', description: 'Ping' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(firewallMessages.duplicate);
    expect(await ctx().app.deps.hypervisor.listFirewallRules(vm)).toHaveLength(2);

    // Another protocol or other ports are different rules.
    expect((await add(server.id, owner.auth, { protocol: 'udp', port: '80,443', description: 'QUIC' })).statusCode).toBe(201);
    expect((await add(server.id, owner.auth, { protocol: 'tcp', port: '80', description: 'Nur HTTP' })).statusCode).toBe(201);
    expect((await ctx().app.deps.hypervisor.listFirewallRules(vm)).map((r) => [r.proto, r.dport ?? 'any'])).toEqual([
      ['tcp', '80'], ['udp', '80,443'], ['icmp', 'any'], ['tcp', '80,443'],
    ]);
  });

  it('turning the firewall off hides the rules and refuses new ones; turning it on shows them again', async () => {
    const owner = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };
    expect((await add(server.id, owner.auth, { protocol: 'tcp', port: '22', description: 'SSH' })).statusCode).toBe(201);

    const off = await ctx().app.inject({ method: 'PUT', url: url(server.id), headers: owner.auth, payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ enabled: false, rules: [], message: firewallMessages.disabledOk });
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.firewallEnabled).toBe(false);
    expect((await ctx().app.inject({ method: 'GET', url: url(server.id), headers: owner.auth })).json()).toEqual({ enabled: false, rules: [] });

    const refused = await add(server.id, owner.auth, { protocol: 'tcp', port: '80', description: 'Web' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(firewallMessages.disabled);
    expect(await ctx().app.deps.hypervisor.listFirewallRules(vm)).toHaveLength(1);

    const on = await ctx().app.inject({ method: 'PUT', url: url(server.id), headers: owner.auth, payload: { enabled: true } });
    expect(on.json()).toMatchObject({ enabled: true, message: firewallMessages.enabled });
    expect((on.json().rules as Rule[]).map((r) => r.description)).toEqual(['SSH']);
  });

  it('a shared user may operate; another customer gets 404 on every route and nothing changes', async () => {
    const owner = await createUser(ctx());
    const friend = await createUser(ctx());
    const other = await createUser(ctx());
    const { server, node } = await seedServer(ctx(), owner.user.id);
    const vm = { node: node.name, vmid: server.vmid };
    await ctx().database.db.insert(serverAccess).values({ serverId: server.id, userId: friend.user.id });
    expect((await add(server.id, friend.auth, { protocol: 'tcp', port: '22', description: 'SSH' })).statusCode).toBe(201);
    const [rule] = (await ctx().app.inject({ method: 'GET', url: url(server.id), headers: friend.auth })).json().rules as Rule[];

    const attempts = [
      { method: 'GET' as const, url: url(server.id) },
      { method: 'PUT' as const, url: url(server.id), payload: { enabled: false } },
      { method: 'POST' as const, url: url(server.id, '/rules'), payload: { protocol: 'tcp', port: '80', description: 'Fremd' } },
      { method: 'DELETE' as const, url: url(server.id, `/rules/${rule!.pos}?fingerprint=${rule!.fingerprint}`) },
    ];
    for (const a of attempts) {
      const res = await ctx().app.inject({ ...a, headers: other.auth });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(404);
    }
    const anonymous = await ctx().app.inject({ method: 'GET', url: url(server.id) });
    expect(anonymous.statusCode).toBe(401);
    expect((await ctx().app.deps.hypervisor.listFirewallRules(vm)).map((r) => r.comment)).toEqual(['SSH']);
    const [row] = await ctx().database.db.select().from(servers).where(eq(servers.id, server.id));
    expect(row!.firewallEnabled).toBe(true);
  });
});
