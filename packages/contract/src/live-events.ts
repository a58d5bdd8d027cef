import { z } from 'zod';

/**
 * Events of the live stream (`GET /api/events`, docs/decisions/011). They carry ids only: the client
 * refetches the object through its REST route, so an event never shows more than that route would.
 */
export const LiveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('server.changed'), serverId: z.uuid() }),
  z.object({ type: z.literal('task.changed'), serverId: z.uuid(), taskId: z.uuid() }),
  /** A ticket, or its chat, changed (message, status, assignee): for its customer and staff. */
  z.object({ type: z.literal('ticket.changed'), ticketId: z.uuid() }),
  /** An internal note was added: for staff only, never a customer (not even the id). */
  z.object({ type: z.literal('ticket.noted'), ticketId: z.uuid() }),
  /** Staff came to or left a ticket view, or started/stopped typing: for staff only. */
  z.object({ type: z.literal('ticket.presence'), ticketId: z.uuid() }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;
export type LiveEventType = LiveEvent['type'];

/**
 * Names of the SSE `event:` field besides the LiveEvent types: `ready` after the stream opened and
 * `resync` when the server may have missed changes (its database listener reconnected). After both the
 * client refetches what it shows.
 */
export const liveControlEvents = ['ready', 'resync'] as const;

export const liveEventMessages = {
  notAcceptable: 'Dieser Endpunkt liefert nur einen Ereignisstrom (Accept: text/event-stream).',
  tooManyStreams: 'Zu viele offene Live-Verbindungen. Bitte schließen Sie nicht benötigte Tabs und versuchen Sie es erneut.',
} as const;
