import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { afterEach, expect, it, vi } from 'vitest';
import { describeEachDatabase, createUser } from '../../../test/harness.ts';
import { seedServer } from '../../../test/servers.ts';
import { signToken } from '../../lib/tokens.ts';
import { revokeSession } from '../auth/sessions.ts';


/** The `ws` client (the package ships no types here). */
interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  send(data: string): void;
  close(): void;
}
const WebSocket = createRequire(import.meta.url)('ws') as new (url: string) => WsClient;

/** Connects and collects output; `until` waits for a pattern, `closed` for the close frame. */
function connect(base: string, path: string) {
  const ws = new WebSocket(`${base}${path}`);
  let output = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  ws.on('message', (data) => {
    output += data.toString('utf8');
    for (const w of waiters.splice(0)) {
      if (w.re.test(output)) w.resolve();
      else waiters.push(w);
    }
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  const opened = new Promise<void>((resolve) => ws.on('open', resolve));
  const until = (re: RegExp, ms = 5000) => new Promise<void>((resolve, reject) => {
    if (re.test(output)) return resolve();
    const timer = setTimeout(() => reject(new Error(`no ${re} in ${JSON.stringify(output)}`)), ms);
    waiters.push({ re, resolve: () => { clearTimeout(timer); resolve(); } });
  });
  return { ws, opened, closed, until, output: () => output };
}

describeEachDatabase('servers: console token and websocket console', (ctx) => {
  let base: string | undefined;
  const baseUrl = async () => {
    if (!base) {
      await ctx().app.listen({ port: 0, host: '127.0.0.1' });
      const address = ctx().app.server.address() as { port: number };
      base = `ws://127.0.0.1:${address.port}`;
    }
    return base;
  };
  const consoleToken = async (auth: Record<string, string>, serverId: string) => {
    const res = await ctx().app.inject({ method: 'POST', url: `/api/servers/${serverId}/console-token`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('issues a 60-second console token to the owner; 404 for another customer, 409 for an offline server, 401 anonymous', async () => {
    const owner = await createUser(ctx());
    const other = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const ok = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/console-token`, headers: owner.auth });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ token: expect.any(String), expiresIn: 60 });
    const claims = JSON.parse(Buffer.from(ok.json().token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: owner.user.id, pur: 'console', srv: server.id, sid: expect.any(String), jti: expect.any(String) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(60);

    const foreign = await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/console-token`, headers: other.auth });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('Server nicht gefunden.');
    expect((await ctx().app.inject({ method: 'POST', url: `/api/servers/${server.id}/console-token` })).statusCode).toBe(401);

    const { server: offline } = await seedServer(ctx(), owner.user.id, { status: 'offline' });
    const refused = await ctx().app.inject({ method: 'POST', url: `/api/servers/${offline.id}/console-token`, headers: owner.auth });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('SERVER_NOT_ONLINE');
  });

  it('proxies the console: banner and prompt, uname -a, resize, exit closes the socket', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const token = await consoleToken(owner.auth, server.id);
    const c = connect(await baseUrl(), `/api/servers/${server.id}/console?token=${encodeURIComponent(token)}`);
    await c.opened;
    await c.until(new RegExp(`root@${server.name}:~# $`));
    expect(c.output()).toContain('Debian GNU/Linux');

    c.ws.send('uname -a\r');
    await c.until(/Linux srv-\d+ .*GNU\/Linux\r\nroot@/);

    c.ws.send(JSON.stringify({ type: 'resize', cols: 132, rows: 43 }));
    c.ws.send('stty size\r');
    await c.until(/43 132\r\n/);

    c.ws.send('exit\r');
    await c.until(/logout/);
    const closed = await c.closed;
    expect(closed.code).toBe(1000);
  });

  it('refuses a missing, forged, expired, used or foreign token and a token of an ended session: 4401, no console opened', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const { server: second } = await seedServer(ctx(), owner.user.id);
    const url = await baseUrl();
    const path = (id: string, token?: string) => `/api/servers/${id}/console${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
    const sid = JSON.parse(Buffer.from(owner.token.split('.')[1]!, 'base64url').toString()).sid as string;
    const claims = { sub: owner.user.id, pur: 'console' as const, sid, srv: server.id, jti: crypto.randomUUID() };

    // A used token: the first connection succeeds, the second is refused.
    const used = await consoleToken(owner.auth, server.id);
    const first = connect(url, path(server.id, used));
    await first.until(/# $/);
    first.ws.close();
    await first.closed;

    const foreignToken = await consoleToken(owner.auth, second.id);
    const otherSession = await createUser(ctx());
    const revokedToken = await consoleToken(owner.auth, server.id);
    await revokeSession(ctx().database.db, sid);

    const spy = vi.spyOn(ctx().app.deps.hypervisor, 'openConsole');
    const cases: [string, string][] = [
      ['missing', path(server.id)],
      ['empty', path(server.id, '')],
      ['garbage', path(server.id, 'abc.def.ghi')],
      ['forged', path(server.id, await signToken(crypto.randomBytes(32), { ...claims, jti: crypto.randomUUID() }, 60))],
      ['expired', path(server.id, await signToken(ctx().app.deps.secrets.jwtKey, { ...claims, jti: crypto.randomUUID() }, -5))],
      ['access token', path(server.id, otherSession.token)],
      ['used', path(server.id, used)],
      ['other server', path(server.id, foreignToken)],
      ['session revoked', path(server.id, revokedToken)],
    ];
    for (const [name, p] of cases) {
      const c = connect(url, p);
      const closed = await c.closed;
      expect(closed.code, name).toBe(4401);
      expect(closed.reason, name).toMatch(/Konsolenzugang ungültig/);
      expect(c.output(), name).toBe('');
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('the console token is no access token; a plain GET of the websocket route is a German 426', async () => {
    const owner = await createUser(ctx());
    const { server } = await seedServer(ctx(), owner.user.id);
    const token = await consoleToken(owner.auth, server.id);
    const me = await ctx().app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);
    const detail = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}`, headers: { authorization: `Bearer ${token}` } });
    expect(detail.statusCode).toBe(401);

    const plain = await ctx().app.inject({ method: 'GET', url: `/api/servers/${server.id}/console?token=${token}` });
    expect(plain.statusCode).toBe(426);
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.json().error).toEqual({ code: 'UPGRADE_REQUIRED', message: 'Die Konsole ist nur über eine WebSocket-Verbindung erreichbar.' });
  });
});
