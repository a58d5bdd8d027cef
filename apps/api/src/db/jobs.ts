import type { z } from 'zod';
import type { Db } from './client.ts';
import { jobs } from './schema/index.ts';

/**
 * The write side of the durable job queue (jobs/queue.ts runs the jobs). A job kind is a name and the
 * schema of its payload; `enqueue` is type-checked against it and inserts a row in the caller's
 * transaction, so the job exists exactly when the change it follows does. Kinds live with the database,
 * not with the runner, so a driver (the simulated payment provider's webhooks) can declare and enqueue
 * one without importing modules or jobs/ (docs/decisions/009, 011).
 */
export interface JobKind<P> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
}

export const jobKind = <P>(name: string, payload: z.ZodType<P>): JobKind<P> => ({ name, payload });

/**
 * A payload key named `sealed` holds a secret encrypted with the installation key (a root password for
 * a reinstall, database credentials for a software install). The runner removes it when the job ends,
 * so no secret outlives its job, not even encrypted.
 */
export const SEALED_KEY = 'sealed';

type Executor = Pick<Db, 'insert'>;

export interface EnqueueOptions {
  /** At most one job per key, ever (e.g. `invoice:<orderId>`); a second enqueue is a no-op. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Enqueue inside the caller's transaction. The payload is checked against the kind's schema here. */
export async function enqueue<P>(tx: Executor, kind: JobKind<P>, payload: P, opts: EnqueueOptions = {}) {
  const checked = kind.payload.parse(payload) as Record<string, unknown>;
  await tx.insert(jobs).values({
    kind: kind.name, payload: checked,
    dedupeKey: opts.dedupeKey ?? null,
    ...(opts.runAt ? { runAt: opts.runAt } : {}),
    ...(opts.maxAttempts ? { maxAttempts: opts.maxAttempts } : {}),
  }).onConflictDoNothing();
}
