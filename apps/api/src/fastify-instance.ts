import type { Db } from './db/client.ts';
import type { Deps } from './deps.ts';
import type { RegisteredRoute } from './http/auth.ts';
import type { JobRunner } from './jobs/queue.ts';
import type { Scheduler } from './jobs/scheduler.ts';
import type { PublicCache } from './http/public-cache.ts';

/**
 * What app.ts decorates the Fastify instance with. It sits above deps.ts, not in it: deps.ts is named by
 * the job runner (jobs/define.ts), so naming the runner from deps.ts closed a type-only cycle
 * (deps.ts → jobs/queue.ts → jobs/define.ts → deps.ts) that `npm run lint:cycles` now refuses.
 */
declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    deps: Deps;
    registeredRoutes: RegisteredRoute[];
    /** Durable jobs (fulfilment, invoices, expiry); started by server.ts, drained by tests. */
    jobs: JobRunner;
    /** Periodic work (task settler, billing housekeeping), one instance per period; started by server.ts. */
    scheduler: Scheduler;
    /** Public data in memory (status page, changelog), dropped when it changes (http/public-cache.ts). */
    publicCache: PublicCache;
  }
}
