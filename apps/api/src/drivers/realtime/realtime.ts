import { LiveEvent } from '@hp/contract';

/** The PostgreSQL channel the triggers of migration 0006 notify on. */
export const EVENTS_CHANNEL = 'hp_events';

/**
 * What a subscriber hears: a committed change; `sessionsEnded` when sessions of an account were revoked
 * (logout, lock, deletion, role change: streams of that account are checked and closed at once, the
 * clients never see it); or `resync` when the listener was disconnected and may have missed changes
 * (subscribers tell their clients to refetch).
 */
export type RealtimeMessage =
  | { kind: 'event'; event: LiveEvent }
  | { kind: 'sessionsEnded'; userId: string }
  /** Public data (status page, changelog) changed: instances drop what they keep in memory (migration 0028). */
  | { kind: 'publicChanged'; topic: string }
  | { kind: 'resync' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RealtimeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The port for events that must reach every API instance (ARCHITECTURE §1): one listening connection
 * per instance, fanned out in memory to the subscribers of that instance. Writers need no call: the
 * database triggers notify in the writing transaction (docs/decisions/011).
 */
export interface Realtime {
  readonly kind: 'postgres' | 'pglite';
  /** Opens the listening connection; resolves once LISTEN is active (later losses reconnect by themselves). */
  start(log: RealtimeLog): Promise<void>;
  subscribe(listener: (message: RealtimeMessage) => void): () => void;
  close(): Promise<void>;
}

/** Parses a notification payload; anything else on the channel is ignored. */
export function parseNotification(payload: string | undefined): Exclude<RealtimeMessage, { kind: 'resync' }> | null {
  if (!payload) return null;
  try {
    const json: unknown = JSON.parse(payload);
    // Written by the sessions trigger of migration 0027; an account id only.
    if (typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'sessions.ended') {
      const userId = (json as { userId?: unknown }).userId;
      return typeof userId === 'string' && UUID.test(userId) ? { kind: 'sessionsEnded', userId } : null;
    }
    if (typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'public.changed') {
      const topic = (json as { topic?: unknown }).topic;
      return typeof topic === 'string' && /^[a-z]{1,40}$/.test(topic) ? { kind: 'publicChanged', topic } : null;
    }
    const parsed = LiveEvent.safeParse(json);
    return parsed.success ? { kind: 'event', event: parsed.data } : null;
  } catch {
    return null;
  }
}

/** The in-memory fan-out both drivers share; a throwing subscriber does not stop the others. */
export class Subscribers {
  private readonly listeners = new Set<(message: RealtimeMessage) => void>();
  add(listener: (message: RealtimeMessage) => void) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  emit(message: RealtimeMessage) {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch {
        // A subscriber's failure is its own (it closes its stream); the others still hear the event.
      }
    }
  }
  clear() {
    this.listeners.clear();
  }
}
