/**
 * The serial console through Proxmox's termproxy and its VNC websocket, as a ConsoleConnection the API
 * proxies to the browser; the node itself is never exposed.
 */
import { createRequire } from 'node:module';
import type { ConsoleConnection, VmRef } from '../hypervisor.ts';
import { networkErrorText, vmPath, type ProxmoxClient } from './proxmox-client.ts';

/** A ws WebSocket as far as the console needs it (the package ships no types here). */
interface WsSocket {
  readyState: number;
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  send(data: string): void;
  close(): void;
  terminate(): void;
}
type WsConstructor = new (url: string, options: Record<string, unknown>) => WsSocket;

/** `ws` is used only if it is installed (it comes with @fastify/websocket); no new dependency. */
export function loadWs(): { WebSocket: WsConstructor; WebSocketServer: new (options: Record<string, unknown>) => unknown } | null {
  try {
    const mod = createRequire(import.meta.url)('ws') as WsConstructor & { WebSocketServer: new (options: Record<string, unknown>) => unknown };
    return { WebSocket: mod, WebSocketServer: mod.WebSocketServer };
  } catch {
    return null;
  }
}

export function createProxmoxConsole({ api, fail, config, tokenAuth, noAuth, baseUrl, pinnedAgent, timeoutMs }: ProxmoxClient) {
  async function openConsole(vm: VmRef): Promise<ConsoleConnection> {
    const ws = loadWs();
    if (!ws) throw fail('UNAVAILABLE', 'console needs the ws package');
    // API tokens are often refused on the websocket; a console-only user with a ticket is the reliable way.
    let auth = tokenAuth;
    if (config.consoleUser && config.consolePassword) {
      // The login must go out without the token header: /access/ticket has allowtoken 0 (403 otherwise).
      const login = await api<{ ticket: string; CSRFPreventionToken: string }>('POST', '/access/ticket', { username: config.consoleUser, password: config.consolePassword }, noAuth);
      auth = { headers: { Cookie: `PVEAuthCookie=${login.ticket}`, CSRFPreventionToken: login.CSRFPreventionToken } };
    }
    const proxy = await api<{ port: number | string; ticket: string; user: string }>('POST', `${vmPath(vm)}/termproxy`, {}, auth);
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}${vmPath(vm)}/vncwebsocket?port=${encodeURIComponent(String(proxy.port))}&vncticket=${encodeURIComponent(proxy.ticket)}`;
    const headers = { ...auth.headers };
    delete headers.CSRFPreventionToken;
    const socket = new ws.WebSocket(wsUrl, { headers, agent: wsUrl.startsWith('wss:') ? pinnedAgent : undefined, handshakeTimeout: timeoutMs });

    const dataListeners: ((data: string) => void)[] = [];
    const closeListeners: (() => void)[] = [];
    const early: string[] = [];
    let closed = false;
    let ping: ReturnType<typeof setInterval> | undefined;
    const emit = (data: string) => {
      if (!data) return;
      if (dataListeners.length) for (const l of dataListeners) l(data);
      else early.push(data);
    };

    await new Promise<void>((resolve, reject) => {
      let authenticated = false;
      const timer = setTimeout(() => {
        socket.terminate();
        reject(fail('TIMEOUT', 'console handshake timed out'));
      }, timeoutMs);
      socket.on('open', () => socket.send(`${proxy.user}:${proxy.ticket}\n`));
      socket.on('message', (raw) => {
        const text = raw.toString();
        if (authenticated) return emit(text);
        clearTimeout(timer);
        if (!text.startsWith('OK')) {
          socket.close();
          return reject(fail('UNAVAILABLE', 'console authentication refused'));
        }
        authenticated = true;
        ping = setInterval(() => socket.readyState === 1 && socket.send('2'), 30_000);
        ping.unref?.();
        resolve();
        emit(text.slice(2));
      });
      socket.on('error', (err) => {
        clearTimeout(timer);
        reject(fail('UNAVAILABLE', `console: ${networkErrorText(err)}`));
      });
      socket.on('close', () => {
        clearTimeout(timer);
        clearInterval(ping);
        if (!authenticated) reject(fail('UNAVAILABLE', 'console closed during handshake'));
        if (!closed) {
          closed = true;
          for (const l of closeListeners) l();
        }
      });
    });

    return {
      write(data) {
        if (socket.readyState === 1) socket.send(`0:${Buffer.byteLength(data)}:${data}`);
      },
      resize(cols, rows) {
        if (socket.readyState === 1) socket.send(`1:${cols}:${rows}:`);
      },
      onData(listener) {
        dataListeners.push(listener);
        for (const d of early.splice(0)) listener(d);
      },
      onClose(listener) {
        if (closed) listener();
        else closeListeners.push(listener);
      },
      close() {
        clearInterval(ping);
        socket.close();
      },
    };
  }

  return { openConsole };
}
