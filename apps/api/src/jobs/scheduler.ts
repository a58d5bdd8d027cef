import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { schedules } from '../db/schema/index.ts';
import type { JobDeps, ScheduleDefinition } from './define.ts';
import { LogThrottle } from '../lib/log-throttle.ts';

/**
 * Runs each schedule once per period across all instances. Every instance ticks; a tick runs a
 * schedule only if it could move the schedule's `next_run_at` (database time) from the past into the
 * next period with one conditional UPDATE, which of several instances exactly one wins. A run that is
 * still going when its next period comes is not started a second time on this instance.
 *
 * A run is not resumed after a crash: the next period simply runs again, so schedules must be
 * idempotent and short, and hand long work to durable jobs.
 */
export class Scheduler {
  private readonly defs = new Map<string, ScheduleDefinition>();
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly claimErrorLog = new LogThrottle(5000);
  private active = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly deps: () => JobDeps,
    private readonly opts: { tickMs?: number; owner: string; onRun?: () => void },
  ) {}

  register(def: ScheduleDefinition) {
    if (this.defs.has(def.name)) throw new Error(`schedule ${def.name} is defined twice`);
    this.defs.set(def.name, def);
    return this;
  }

  get names() {
    return [...this.defs.keys()];
  }

  async start() {
    this.stopped = false;
    // The first period of a new schedule begins after its first delay; an existing row keeps its time.
    for (const def of this.defs.values()) {
      const first = def.firstAfterMs?.(this.deps()) ?? def.everyMs(this.deps());
      await this.db.insert(schedules).values({ name: def.name, nextRunAt: sql`now() + (${first} * interval '1 millisecond')` as never })
        .onConflictDoNothing();
    }
    this.arm();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.active]);
  }

  private arm() {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick().finally(() => this.arm()), this.opts.tickMs ?? 500);
    this.timer.unref();
  }

  /** Claims and runs every due schedule once (the periodic tick). */
  async tick() {
    for (const def of this.defs.values()) {
      if (this.stopped || this.running.has(def.name)) continue;
      let won = false;
      try {
        won = await this.claim(def);
      } catch (err) {
        // During a database outage every schedule fails every tick: one line per few seconds, with how
        // many were held back, like the request log (issue 21).
        const suppressed = this.claimErrorLog.take();
        if (suppressed !== undefined) this.deps().log.error({ schedule: def.name, err: { message: (err as Error).message }, suppressed }, 'schedule claim failed');
      }
      if (won) this.launch(def);
    }
  }

  private async claim(def: ScheduleDefinition) {
    const every = def.everyMs(this.deps());
    const result = await this.db.execute(sql`
      update ${schedules} set next_run_at = now() + (${every} * interval '1 millisecond'),
        last_started_at = now(), last_owner = ${this.opts.owner}, runs = runs + 1
      where name = ${def.name} and next_run_at <= now()
      returning name`);
    return (result as unknown as { rows: unknown[] }).rows.length > 0;
  }

  private launch(def: ScheduleDefinition) {
    this.running.add(def.name);
    const done = this.runOne(def).finally(() => {
      this.running.delete(def.name);
      this.active.delete(done);
    });
    this.active.add(done);
  }

  private async runOne(def: ScheduleDefinition) {
    const deps = this.deps();
    try {
      await def.run(deps);
      this.opts.onRun?.();
      await this.db.update(schedules).set({ lastError: null }).where(sql`name = ${def.name} and last_error is not null`);
    } catch (err) {
      const message = (err as Error).message?.slice(0, 500) ?? 'unknown';
      deps.log.error({ schedule: def.name, err: { message } }, 'scheduled run failed');
      await this.db.update(schedules).set({ lastError: message }).where(sql`name = ${def.name}`).catch(() => {});
    }
  }

  /** Runs the named schedules now, on this instance, without claiming a period (tests, the CLI). */
  async runNow(...names: string[]) {
    for (const name of names) {
      const def = this.defs.get(name);
      if (!def) throw new Error(`unknown schedule ${name}`);
      await def.run(this.deps());
    }
  }
}
