import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Deps } from '../deps.ts';
import type { JobKind } from '../db/jobs.ts';
import type { Db } from '../db/client.ts';

/**
 * The three things a module contributes to the runtime, declared next to the code they belong to and
 * collected by the composition root from one list of manifests (app.ts, docs/decisions/013):
 * routes, job definitions and schedules.
 */

/** What a job handler or a schedule gets: the adapters and the instance's logger. */
export type JobDeps = Deps & { log: FastifyBaseLogger };

export interface JobRun {
  id: number;
  /** 1 on the first run; higher after a failure or after a crashed runner's lease ran out. */
  attempt: number;
}

/** A job kind with its handler. Handlers are idempotent: a job may run again after a crash. */
export interface JobDefinition<P = unknown> extends JobKind<P> {
  handle(deps: JobDeps, payload: P, run: JobRun): Promise<void>;
}

export function defineJob<P>(kind: JobKind<P>, handle: (deps: JobDeps, payload: P, run: JobRun) => Promise<void>): JobDefinition<P> {
  return { name: kind.name, payload: kind.payload, handle };
}

/**
 * Periodic work that exactly one instance runs per period (jobs/scheduler.ts claims the period in the
 * `schedules` table). Runs must be idempotent and short; long work enqueues jobs.
 */
export interface ScheduleDefinition {
  name: string;
  everyMs: (deps: JobDeps) => number;
  /** Delay of the first run after start-up (default: one period). */
  firstAfterMs?: (deps: JobDeps) => number;
  run(deps: JobDeps): Promise<unknown>;
}

export const defineSchedule = (s: ScheduleDefinition) => s;

export interface ModuleManifest {
  name: string;
  routes?: FastifyPluginAsync[];
  // Job definitions are stored side by side whatever their payload; the runner checks each payload
  // against the definition's own schema before calling its handler.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  jobs?: JobDefinition<any>[];
  schedules?: ScheduleDefinition[];
  /**
   * Demo data of the embedded installation (what the module needs to work out of the box, e.g. a product's
   * first server), loaded once per installation under the marker `demo_seeded_<name>` (db/seed.ts).
   */
  seed?: (db: Db) => Promise<void>;
}

export const defineModule = (m: ModuleManifest) => m;
