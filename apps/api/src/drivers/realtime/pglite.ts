import type { PGliteInterface } from '@electric-sql/pglite';
import { EVENTS_CHANNEL, parseNotification, Subscribers, type Realtime } from './realtime.ts';

/**
 * PGlite is one in-process database: its listen() hears the notifications of every transaction this
 * process commits (through any Drizzle handle on the same client). Nothing can drop, so no reconnect.
 */
export function createPgliteRealtime(client: PGliteInterface): Realtime {
  const subscribers = new Subscribers();
  let unlisten: (() => Promise<void>) | null = null;
  return {
    kind: 'pglite',
    async start() {
      if (unlisten) return;
      unlisten = await client.listen(EVENTS_CHANNEL, (payload) => {
        const message = parseNotification(payload);
        if (message) subscribers.emit(message);
      });
    },
    subscribe: (listener) => subscribers.add(listener),
    async close() {
      subscribers.clear();
      const stop = unlisten;
      unlisten = null;
      if (stop && !client.closed) await stop().catch(() => {});
    },
  };
}
