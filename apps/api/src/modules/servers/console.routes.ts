import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import websocket from '@fastify/websocket';
import { z } from 'zod';
import { ApiError, ConsoleToken, ServerIdParams } from '@hp/contract';
import { AppError } from '../../http/errors.ts';
import type { ConsoleConnection } from '../../drivers/hypervisor/hypervisor.ts';
import { CONSOLE_CLOSE, CONSOLE_IDLE_MS, CONSOLE_MAX_MESSAGE_BYTES, issueConsoleToken, openConsoleFor } from './console.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };
const ConsoleQuery = z.object({ token: z.string().optional() });

/** A ws WebSocket as far as the proxy needs it (the package ships no types here). */
interface WsSocket {
  readyState: number;
  on(event: 'close', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer | Buffer[] | ArrayBuffer) => void): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
const OPEN = 1;

/** {"type":"resize","cols":n,"rows":n} from the page; anything else is terminal input. */
function resizeOf(text: string): { cols: number; rows: number } | null {
  if (!text.startsWith('{"type":"resize"')) return null;
  try {
    const msg = JSON.parse(text) as { cols?: unknown; rows?: unknown };
    const cols = Number(msg.cols);
    const rows = Number(msg.rows);
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 2 || rows < 1 || cols > 1000 || rows > 500) return null;
    return { cols, rows };
  } catch {
    return null;
  }
}

const textOf = (data: Buffer | Buffer[] | ArrayBuffer) =>
  Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');

/**
 * The server console: a short-lived console token (POST …/console-token), then a websocket that the
 * portal proxies to the hypervisor's terminal. Browsers cannot send the bearer header on a websocket,
 * so the websocket route is public for the access layer and checks the console token itself.
 * @fastify/websocket is registered here, inside this encapsulated plugin, because only this plugin's
 * route is a websocket route (its hooks and route wrapper stay in this context).
 */
export async function consoleRoutes(app: FastifyInstance) {
  await app.register(websocket, { options: { maxPayload: CONSOLE_MAX_MESSAGE_BYTES } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.post('/api/servers/:id/console-token', {
    config: { access: 'customer' },
    schema: { tags: ['servers'], summary: 'Konsolen-Token (60 s, einmalig) für die WebSocket-Konsole', security: [{ bearer: [] }], params: ServerIdParams, response: { 200: ConsoleToken, ...errors } },
  }, async (req) => issueConsoleToken(deps, req.user, req.params.id));

  r.route({
    method: 'GET',
    url: '/api/servers/:id/console',
    config: { access: 'public' },
    schema: {
      tags: ['servers'],
      summary: 'Konsole (WebSocket; Anmeldung über ?token= aus …/console-token)',
      params: ServerIdParams,
      querystring: ConsoleQuery,
      response: { 400: ApiError, 426: ApiError },
    },
    // A plain HTTP GET (no upgrade) is answered here.
    handler: async () => {
      throw new AppError(426, 'UPGRADE_REQUIRED', 'Die Konsole ist nur über eine WebSocket-Verbindung erreichbar.');
    },
    wsHandler: (async (socket: WsSocket, req: FastifyRequest) => {
      const serverId = (req.params as { id: string }).id;
      const token = (req.query as { token?: string }).token;
      let connection: ConsoleConnection | null = null;
      let ended = false;
      let idle: NodeJS.Timeout | undefined;
      // Input that arrives while the token is being checked, delivered once the console is open.
      const pending: string[] = [];
      let pendingBytes = 0;

      const finish = (close: { code: number; reason: string }) => {
        if (ended) return;
        ended = true;
        clearTimeout(idle);
        connection?.close();
        if (socket.readyState === OPEN) socket.close(close.code, close.reason);
      };
      const touch = () => {
        clearTimeout(idle);
        idle = setTimeout(() => finish(CONSOLE_CLOSE.idle), CONSOLE_IDLE_MS);
        idle.unref();
      };
      const deliver = (text: string) => {
        const size = resizeOf(text);
        if (size) connection!.resize(size.cols, size.rows);
        else connection!.write(text);
      };

      socket.on('message', (data) => {
        if (ended) return;
        const text = textOf(data);
        if (!connection) {
          pendingBytes += text.length;
          if (pendingBytes > CONSOLE_MAX_MESSAGE_BYTES) return finish(CONSOLE_CLOSE.tooLarge);
          pending.push(text);
          return;
        }
        touch();
        deliver(text);
      });
      socket.on('close', () => {
        ended = true;
        clearTimeout(idle);
        connection?.close();
      });

      const result = await openConsoleFor(deps, serverId, token);
      if (!result.ok) {
        // Never log the token; the request log line carries the path without the query string.
        req.log.info({ serverId, closeCode: result.close.code }, 'console refused');
        return finish(result.close);
      }
      if (ended) {
        result.connection.close();
        return;
      }
      connection = result.connection;
      req.log.info({ serverId, userId: result.user.id }, 'console opened');
      connection.onData((data) => {
        if (!ended && socket.readyState === OPEN) socket.send(data);
      });
      connection.onClose(() => finish(CONSOLE_CLOSE.ended));
      for (const text of pending.splice(0)) deliver(text);
      touch();
    }) as never,
  });
}
