import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineSchedule } from '../../jobs/define.ts';
import { rowsOf } from '../../lib/rate-limit.ts';

/**
 * The end of the statutory retention of a deleted customer's records (docs/decisions/018). Invoices and
 * credit notes are kept 8 years by default (INVOICE_RETENTION_YEARS; §147 Abs. 1 Nr. 4, Abs. 3 AO,
 * §14b Abs. 1 UStG and §257 Abs. 1 Nr. 4, Abs. 4 HGB as amended from 1 January 2025), uploaded
 * documents such as contracts 6 years (§257 Abs. 1 Nr. 2, 3 HGB). Each period starts at the end of the
 * calendar year the document is from (§147 Abs. 4 AO, §257 Abs. 5 HGB), so a document of year Y may go
 * from 1 January of Y + years + 1. Only accounts that were deleted are cleaned up: an active customer's
 * records still serve the contract.
 */
/** The default and the legal minimum since 1 January 2025 (Bürokratieentlastungsgesetz IV). */
export const INVOICE_RETENTION_YEARS = 8;
export const DOCUMENT_RETENTION_YEARS = 6;
/** Rows per run, so one run stays short; the next day's run takes the rest. */
const BATCH = 500;

const berlinYear = (now: Date) => Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(now));

/** First day (Berlin calendar) from which documents of earlier years are past their retention. */
export const retentionCutoff = (now: Date, years: number) => `${berlinYear(now) - years}-01-01`;

export async function runRetention(db: Db, now = new Date(), invoiceYears = INVOICE_RETENTION_YEARS) {
  const invoiceCutoff = retentionCutoff(now, Math.max(INVOICE_RETENTION_YEARS, invoiceYears));
  const documentCutoff = retentionCutoff(now, DOCUMENT_RETENTION_YEARS);
  return db.transaction(async (tx) => {
    // Credit notes first; an invoice goes only once no credit note still kept refers to it.
    const due = rowsOf(await tx.execute(sql`
      select i.id from invoices i join users u on u.id = i.user_id
      where u.deleted_at is not null and i.issue_date < ${invoiceCutoff}
        and (i.kind = 'credit_note' or not exists (
          select 1 from invoices c where c.corrects_invoice_id = i.id and c.issue_date >= ${invoiceCutoff}))
      order by i.kind = 'invoice', i.issue_date
      limit ${BATCH}`)).map((r) => String(r.id));
    let invoicesDeleted = 0;
    if (due.length) {
      const ids = sql.join(due.map((id) => sql`${id}::uuid`), sql`, `);
      await tx.execute(sql`delete from invoice_payments where invoice_id in (${ids})`);
      invoicesDeleted = rowsOf(await tx.execute(sql`delete from invoices where id in (${ids}) returning id`)).length;
    }
    // Deleting the file removes its document row (customer_documents.file_id cascades).
    const documentsDeleted = rowsOf(await tx.execute(sql`
      delete from files where id in (
        select d.file_id from customer_documents d join users u on u.id = d.user_id
        where u.deleted_at is not null and (d.created_at at time zone 'Europe/Berlin')::date < ${documentCutoff}::date
        limit ${BATCH})
      returning id`)).length;
    return { invoicesDeleted, documentsDeleted };
  });
}

/** Finished jobs are history for diagnosis only: kept this long, then deleted with their payloads. */
export const FINISHED_JOB_DAYS = 30;

export async function pruneFinishedJobs(db: Db, now = new Date()) {
  const cutoff = new Date(now.getTime() - FINISHED_JOB_DAYS * 86_400_000);
  return rowsOf(await db.execute(sql`
    delete from jobs where id in (
      select id from jobs where status in ('done', 'failed') and finished_at < ${cutoff.toISOString()}::timestamptz limit ${BATCH * 10})
    returning id`)).length;
}

export const retentionSchedule = defineSchedule({
  name: 'retention',
  everyMs: () => 24 * 60 * 60_000,
  firstAfterMs: () => 10 * 60_000,
  run: async (deps) => {
    const result = { ...(await runRetention(deps.db, new Date(), deps.env.billing.invoiceRetentionYears)), finishedJobsDeleted: await pruneFinishedJobs(deps.db) };
    if (result.invoicesDeleted || result.documentsDeleted) deps.log.info(result, 'retention: records of deleted customers past their statutory period removed');
    return result;
  },
});
