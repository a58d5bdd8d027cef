import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { SEALED_KEY } from '../db/jobs.ts';
import type { JobDefinition, JobDeps } from './define.ts';

/**
 * Durable jobs in PostgreSQL (ARCHITECTURE §1, docs/decisions/006): a job is claimed with
 * FOR UPDATE SKIP LOCKED, so exactly one instance runs it; the claim is a lease that the runner renews
 * while the handler works. A killed process stops renewing, the lease runs out and another runner (or
 * the same one after a restart) claims the job again. Handlers are therefore written to be idempotent.
 */

/** A failure that retrying cannot fix: the job is marked failed at once. */
export class PermanentJobError extends Error {}

type ClaimedJob = { id: number; kind: string; payload: Record<string, unknown>; attempts: number; max_attempts: number };

export interface JobRunnerOptions {
  /** How long a claim holds without renewal (default 30 s). */
  leaseMs?: number;
  /** Poll interval when idle (default 500 ms). */
  pollMs?: number;
  /** Jobs run side by side (default 4: provisioning waits on the hypervisor, it does not use the CPU). */
  concurrency?: number;
  log?: { error: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

export class JobRunner {
  readonly owner = crypto.randomUUID();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly handlers = new Map<string, JobDefinition<any>>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private active = new Set<Promise<void>>();

  constructor(private readonly db: Db, private readonly deps: () => JobDeps, private readonly opts: JobRunnerOptions = {}) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 500;
    this.concurrency = opts.concurrency ?? 4;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  register(definition: JobDefinition<any>) {
    if (this.handlers.has(definition.name)) throw new Error(`job ${definition.name} is defined twice`);
    this.handlers.set(definition.name, definition);
    return this;
  }

  /** The kinds this runner handles (tests, diagnostics). */
  get kinds() {
    return [...this.handlers.keys()];
  }

  start() {
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.active]);
  }

  /** Wake up now (after enqueueing), instead of at the next poll. */
  kick() {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick() {
    if (this.stopped) return;
    try {
      while (!this.stopped && this.running < this.concurrency) {
        const job = await this.claim();
        if (!job) break;
        this.launch(job);
      }
    } catch (err) {
      this.opts.log?.error({ err: { message: (err as Error).message } }, 'job claim failed');
    }
    if (!this.stopped) this.schedule(this.pollMs);
  }

  private launch(job: ClaimedJob) {
    this.running++;
    const done = this.execute(job).finally(() => {
      this.running--;
      this.active.delete(done);
      this.kick();
    });
    this.active.add(done);
  }

  /** Claims one due job: queued and due, or running with a lease that ran out (its runner died). */
  async claim(kinds?: string[]): Promise<ClaimedJob | null> {
    const known = kinds ?? [...this.handlers.keys()];
    if (!known.length) return null;
    const result = await this.db.execute<ClaimedJob>(sql`
      update ${jobs} set status = 'running', attempts = ${jobs.attempts} + 1,
        locked_until = now() + (${this.leaseMs} * interval '1 millisecond')
      where ${jobs.id} = (
        select id from ${jobs}
        where kind in (${sql.join(known.map((k) => sql`${k}`), sql`, `)})
          and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
        order by run_at, id
        limit 1
        for update skip locked
      )
      returning id, kind, payload, attempts, max_attempts`);
    const rows = (result as unknown as { rows: ClaimedJob[] }).rows;
    return rows[0] ?? null;
  }

  async execute(job: ClaimedJob) {
    const definition = this.handlers.get(job.kind);
    const renew = setInterval(() => {
      this.db.execute(sql`update ${jobs} set locked_until = now() + (${this.leaseMs} * interval '1 millisecond') where id = ${job.id} and status = 'running'`)
        .catch(() => {});
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    renew.unref();
    try {
      if (!definition) throw new PermanentJobError(`no handler for ${job.kind}`);
      const parsed = definition.payload.safeParse(job.payload);
      if (!parsed.success) throw new PermanentJobError(`payload of ${job.kind} does not match its schema`);
      await definition.handle(this.deps(), parsed.data, { id: job.id, attempt: job.attempts });
      // Fault injection for the crash tests: die after the work, before the job is marked done.
      if (process.env.FAULT_KILL_AFTER_JOB === job.kind) process.kill(process.pid, 'SIGKILL');
      clearInterval(renew);
      await this.db.execute(sql`update ${jobs} set status = 'done', finished_at = now(), locked_until = null, last_error = null, payload = payload - ${SEALED_KEY}::text where id = ${job.id}`);
    } catch (err) {
      clearInterval(renew);
      const message = (err as Error).message?.slice(0, 500) ?? 'unknown';
      const permanent = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      // Exponential backoff: 2 s, 4 s, 8 s … capped at 5 min.
      const delayMs = Math.min(300_000, 1000 * 2 ** job.attempts);
      this.opts.log?.warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, err: { message } }, permanent ? 'job failed for good' : 'job failed, will retry');
      await this.db.execute(permanent
        ? sql`update ${jobs} set status = 'failed', finished_at = now(), locked_until = null, last_error = ${message}, payload = payload - ${SEALED_KEY}::text where id = ${job.id}`
        : sql`update ${jobs} set status = 'queued', run_at = now() + (${delayMs} * interval '1 millisecond'), locked_until = null, last_error = ${message} where id = ${job.id}`)
        .catch(() => {});
    }
  }

  /**
   * Runs due jobs one after another until none is left (tests, and `ignoreRunAt` to skip backoff waits).
   * Returns the number of jobs run.
   */
  async drain(opts: { maxJobs?: number; ignoreRunAt?: boolean } = {}): Promise<number> {
    let n = 0;
    const max = opts.maxJobs ?? 1000;
    while (n < max) {
      if (opts.ignoreRunAt) await this.db.execute(sql`update ${jobs} set run_at = now() where status = 'queued' and run_at > now()`);
      const job = await this.claim();
      if (!job) break;
      await this.execute(job);
      n++;
    }
    return n;
  }
}
