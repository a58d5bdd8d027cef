import type { Db } from './client.ts';
import { jobs } from './schema/index.ts';

/**
 * The write side of the durable job queue (jobs/queue.ts runs the jobs): a job is a row in `jobs`,
 * inserted in the caller's transaction. It lives with the database, not with the runner, so drivers
 * (the simulated payment provider's webhooks) and modules can enqueue without importing jobs/
 * (docs/decisions/009).
 */

type Executor = Pick<Db, 'insert'>;

export interface EnqueueOptions {
  /** At most one job per key, ever (e.g. `invoice:<orderId>`); a second enqueue is a no-op. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Enqueue inside the caller's transaction, so the job exists exactly when the change it follows does. */
export async function enqueueJob(tx: Executor, kind: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}) {
  await tx.insert(jobs).values({
    kind, payload,
    dedupeKey: opts.dedupeKey ?? null,
    ...(opts.runAt ? { runAt: opts.runAt } : {}),
    ...(opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : {}),
  }).onConflictDoNothing();
}
