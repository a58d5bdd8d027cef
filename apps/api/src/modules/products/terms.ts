import { and, eq, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { MailMessage } from '../../drivers/mail/mail.ts';
import type { JobDeps } from '../../jobs/define.ts';
import { enqueueMail } from '../../jobs/mail.ts';

/**
 * The prepaid term of a subscription, the same for every product (docs/decisions/007 and 022):
 * reminder mails before it ends, suspension when it ended, deletion after the grace period. The
 * schedule finds what is due; each step is a conditional UPDATE plus a job and a mail in one
 * transaction, so running it twice (or on two instances) changes nothing. A product describes its
 * subscription table and supplies its suspend and terminate steps (jobs) and its mails.
 */
export interface TermSubject {
  id: string;
  name: string;
  expiresAt: Date;
  reminderStage: number;
  email: string;
  username: string;
}

export interface ProductTerms {
  /** The subscription table and its term columns (the same meaning in every product). */
  table: PgTable;
  columns: { id: AnyPgColumn; ownerId: AnyPgColumn; name: AnyPgColumn; expiresAt: AnyPgColumn; suspendedAt: AnyPgColumn; deletedAt: AnyPgColumn; reminderStage: AnyPgColumn };
  /** Subscriptions that may be suspended at all (e.g. not while still being set up). */
  suspendable: SQL;
  /** Subscriptions that get renewal reminders (default: all; domains: not those the customer lets run out). */
  remindable?: SQL;
  renewUrl: (publicUrl: string, id: string) => string;
  reminderMail: (s: TermSubject, renewUrl: string) => MailMessage;
  suspendedMail: (s: TermSubject, deleteAt: Date, renewUrl: string) => MailMessage;
  /** Marks the subscription suspended (only if it still is not, and its term still is over); true if it did. */
  markSuspended: (tx: Tx, s: TermSubject) => Promise<boolean>;
  /** Enqueues the product's suspend step (stop the VM, lock the panel account). */
  enqueueSuspend: (tx: Tx, s: TermSubject) => Promise<unknown>;
  /** Enqueues the product's terminate step after the grace period. */
  enqueueTerminate: (tx: Tx, s: { id: string; expiresAt: Date }) => Promise<unknown>;
}

export async function runTerms(deps: Pick<JobDeps, 'db' | 'env'>, t: ProductTerms) {
  const { db, env } = deps;
  const c = t.columns;
  const subject = { id: c.id, name: c.name, expiresAt: c.expiresAt, reminderStage: c.reminderStage, email: users.email, username: users.username };
  const load = (where: SQL | undefined) =>
    db.select(subject).from(t.table).innerJoin(users, eq(users.id, c.ownerId)).where(where) as unknown as Promise<TermSubject[]>;

  // Reminders: one mail per threshold crossed (several crossed at once → one mail).
  const thresholds = env.billing.reminderDays;
  let reminded = 0;
  if (thresholds.length) {
    const due = await load(and(isNull(c.deletedAt), isNull(c.suspendedAt), isNotNull(c.expiresAt),
      sql`${c.expiresAt} > now()`, sql`${c.expiresAt} <= now() + (${thresholds[0]!} * interval '1 day')`,
      sql`${c.reminderStage} < ${thresholds.length}`, t.remindable));
    for (const s of due) {
      const daysLeft = (s.expiresAt.getTime() - Date.now()) / 86_400_000;
      const stage = thresholds.filter((days) => daysLeft <= days).length;
      if (stage <= s.reminderStage) continue;
      await db.transaction(async (tx) => {
        const moved = await tx.execute(sql`update ${t.table} set ${sql.identifier(c.reminderStage.name)} = ${stage}
          where ${c.id} = ${s.id} and ${c.reminderStage} = ${s.reminderStage} returning 1`);
        if (!rowCount(moved)) return;
        await enqueueMail(tx, t.reminderMail(s, t.renewUrl(env.publicUrl, s.id)));
        reminded++;
      });
    }
  }

  // Term ended: suspend.
  const ended = await load(and(isNull(c.deletedAt), isNull(c.suspendedAt), isNotNull(c.expiresAt), lte(c.expiresAt, sql`now()`), t.suspendable));
  for (const s of ended) {
    await db.transaction(async (tx) => {
      if (!await t.markSuspended(tx, s)) return;
      const deleteAt = new Date(s.expiresAt.getTime() + env.billing.graceDays * 86_400_000);
      await t.enqueueSuspend(tx, s);
      await enqueueMail(tx, t.suspendedMail(s, deleteAt, t.renewUrl(env.publicUrl, s.id)));
    });
  }

  // Grace period over: terminate.
  const graceOver = await db.select({ id: c.id, expiresAt: c.expiresAt }).from(t.table)
    .where(and(isNull(c.deletedAt), isNotNull(c.suspendedAt), sql`${c.expiresAt} + (${env.billing.graceDays} * interval '1 day') <= now()`)) as unknown as { id: string; expiresAt: Date }[];
  if (graceOver.length) {
    await db.transaction(async (tx) => {
      for (const s of graceOver) await t.enqueueTerminate(tx, s);
    });
  }
  return { reminded, suspended: ended.length, deleting: graceOver.length };
}

function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null; affectedRows?: number };
  return r.rows?.length ?? r.rowCount ?? r.affectedRows ?? 0;
}
