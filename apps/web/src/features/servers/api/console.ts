import type { ConsoleToken, ServerDetail } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/servers/:id — the console window loads the server once (no polling, no query cache).
export const getConsoleServer = (serverId: string, signal?: AbortSignal) => api<ServerDetail>(`/servers/${encodeURIComponent(serverId)}`, { signal });

// POST /api/servers/:id/console-token — a short-lived token for the console websocket.
export const createConsoleToken = (serverId: string) => api<ConsoleToken>(`/servers/${encodeURIComponent(serverId)}/console-token`, { method: 'POST' });
