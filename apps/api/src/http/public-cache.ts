import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Topics of public data; a change to one (any instance, any code path) drops its entries everywhere. */
export const PUBLIC_TOPICS = ['status', 'changelog'] as const;
export type PublicTopic = (typeof PUBLIC_TOPICS)[number];

export interface PublicEntry<T = unknown> {
  /** The data, for server-rendered pages that embed it. */
  value: T;
  /** The JSON (or other text) exactly as sent. */
  body: string;
  /** Weak: the compressed and the plain answer share it. */
  etag: string;
  /** When the data was read (ms). */
  loadedAt: number;
}

interface Slot {
  generation: number;
  loadedAt: number;
  entry?: PublicEntry;
  pending?: Promise<PublicEntry>;
}

/**
 * Public data kept in memory per instance (docs/decisions/029): answered without a query until the data
 * changes. A change is announced by the database triggers of migration 0028 through the live-event
 * channel (so every instance hears it, whichever code path wrote), and the writing instance also drops
 * its entries before it answers the write, so staff read their own change at once. A short lifetime
 * covers time-dependent data and a missed notification; concurrent misses share one load.
 */
export class PublicCache {
  private readonly slots = new Map<string, Slot>();
  private readonly generations = new Map<PublicTopic, number>();

  /**
   * `maxEntries` bounds memory whatever keys callers make up (an outside review filled it with 16,384
   * spellings of one id): beyond it the oldest entries go first.
   */
  constructor(private readonly maxAgeMs = 15_000, private readonly now: () => number = Date.now, private readonly maxEntries = 1000) {}

  get size() {
    return this.slots.size;
  }

  /**
   * The entry of `key`, loaded if missing or older than the lifetime. `serialize` gives the body; for
   * JSON it should be the contract schema's parse, so the answer carries what the route's response
   * schema would let through and nothing more.
   */
  async get<T>(topic: PublicTopic, key: string, load: () => Promise<T>, serialize: (value: T) => string): Promise<PublicEntry<T>> {
    const id = `${topic}\u0000${key}`;
    const generation = this.generations.get(topic) ?? 0;
    const slot = this.slots.get(id);
    if (slot && slot.generation === generation) {
      if (slot.entry && this.now() - slot.loadedAt < this.maxAgeMs) return slot.entry as PublicEntry<T>;
      if (slot.pending) return slot.pending as Promise<PublicEntry<T>>;
    }
    const fresh: Slot = { generation, loadedAt: this.now() };
    const pending = load().then(
      (value) => {
        const body = serialize(value);
        const entry: PublicEntry<T> = { value, body, etag: weakEtagOf(body), loadedAt: fresh.loadedAt };
        // Stored only if no change was announced while loading; the answer itself is still sent.
        if (this.slots.get(id) === fresh) {
          fresh.entry = entry;
          fresh.pending = undefined;
        }
        return entry;
      },
      (err: unknown) => {
        // Errors (404 for an unknown entry, a database outage) are never kept.
        if (this.slots.get(id) === fresh) this.slots.delete(id);
        throw err;
      },
    );
    fresh.pending = pending;
    this.slots.delete(id);
    this.slots.set(id, fresh);
    // Map order is insertion order: the first keys are the oldest loads.
    for (const old of this.slots.keys()) {
      if (this.slots.size <= this.maxEntries) break;
      this.slots.delete(old);
    }
    return pending;
  }

  invalidate(topic: PublicTopic) {
    this.generations.set(topic, (this.generations.get(topic) ?? 0) + 1);
    const prefix = `${topic}\u0000`;
    for (const id of this.slots.keys()) if (id.startsWith(prefix)) this.slots.delete(id);
  }

  invalidateAll() {
    for (const topic of PUBLIC_TOPICS) this.invalidate(topic);
  }
}

/** A weak validator for a body: a hash of its bytes. */
export const weakEtagOf = (body: string) => `W/"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether the request's If-None-Match names this entity (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/**
 * Sends a cached public answer with its validator. Browsers revalidate every time (`max-age=0`: a 304
 * without a body when nothing changed, so staff see their own change at once); a shared cache such as a
 * CDN may keep it for `sharedMaxAgeSeconds` (`s-maxage`).
 */
export function sendPublic(req: FastifyRequest, reply: FastifyReply, entry: PublicEntry, opts: { sharedMaxAgeSeconds: number; type?: string }) {
  reply.header('etag', entry.etag).header('cache-control', `public, max-age=0, s-maxage=${opts.sharedMaxAgeSeconds}`);
  if (etagMatches(req.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return reply.type(opts.type ?? 'application/json; charset=utf-8').send(entry.body);
}
