import { asc, desc, eq, sql } from 'drizzle-orm';
import { changelogMessages as m, type ChangelogDetail, type ChangelogEntry, type ChangelogInput, type ChangelogList } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { changelogEntries } from '../../db/schema/index.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';

type ChangelogDeps = Pick<Deps, 'db'>;
type Row = typeof changelogEntries.$inferSelect;
export type ValidChangelogInput = Required<Omit<ChangelogInput, 'changes'>> & { changes: { title: string; description: string; type: string }[] };

const toEntry = (r: Row): ChangelogEntry => ({
  id: r.id, version: r.version, releaseDate: r.releaseDate, title: r.title, description: r.description, type: r.type,
  highlight: r.highlight, changes: r.changes, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
});

/** The public order: newest release first, then newest created. */
const newestFirst = [desc(changelogEntries.releaseDate), desc(changelogEntries.createdAt), desc(changelogEntries.id)];

export async function listChangelog({ db }: ChangelogDeps): Promise<ChangelogList> {
  const rows = await db.select().from(changelogEntries).orderBy(...newestFirst);
  return { entries: rows.map(toEntry) };
}

export async function getChangelogEntry({ db }: ChangelogDeps, id: string): Promise<ChangelogDetail> {
  const [row] = await db.select().from(changelogEntries).where(eq(changelogEntries.id, id));
  if (!row) throw notFound(m.notFoundText);
  // Neighbours by the same (release date, created, id) order as the list, as one row comparison each.
  const key = sql`(${changelogEntries.releaseDate}, ${changelogEntries.createdAt}, ${changelogEntries.id})`;
  // The entry's own key read in SQL: a JavaScript Date would cut PostgreSQL's microseconds.
  const mine = sql`(select e.release_date, e.created_at, e.id from ${changelogEntries} e where e.id = ${row.id})`;
  const [older] = await db.select({ id: changelogEntries.id }).from(changelogEntries).where(sql`${key} < ${mine}`).orderBy(...newestFirst).limit(1);
  const [newer] = await db.select({ id: changelogEntries.id }).from(changelogEntries).where(sql`${key} > ${mine}`)
    .orderBy(asc(changelogEntries.releaseDate), asc(changelogEntries.createdAt), asc(changelogEntries.id)).limit(1);
  return { ...toEntry(row), olderId: older?.id ?? null, newerId: newer?.id ?? null };
}

export const changelogValues = (input: ValidChangelogInput) => ({
  title: input.title,
  description: input.description,
  version: input.version || null,
  releaseDate: input.releaseDate,
  type: input.type,
  highlight: input.highlight,
  // Spec: change ids are numbered by count.
  changes: input.changes.map((c, i) => ({ id: `c${i + 1}`, title: c.title, description: c.description, type: c.type })),
});

export async function createChangelogEntry({ db }: ChangelogDeps, staff: Pick<RequestUser, 'id'>, input: ValidChangelogInput): Promise<ChangelogEntry> {
  const [row] = await db.insert(changelogEntries).values({ ...changelogValues(input), createdBy: staff.id }).returning();
  return toEntry(row!);
}

export async function updateChangelogEntry({ db }: ChangelogDeps, id: string, input: ValidChangelogInput): Promise<ChangelogEntry> {
  const [row] = await db.update(changelogEntries).set({ ...changelogValues(input), updatedAt: new Date() }).where(eq(changelogEntries.id, id)).returning();
  if (!row) throw notFound(m.notFoundText);
  return toEntry(row);
}

export async function deleteChangelogEntry({ db }: ChangelogDeps, id: string): Promise<void> {
  const gone = await db.delete(changelogEntries).where(eq(changelogEntries.id, id)).returning({ id: changelogEntries.id });
  if (gone.length === 0) throw notFound(m.notFoundText);
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** An Atom feed (RFC 4287) of the newest 50 entries; text only, escaped. */
export function changelogAtom(list: ChangelogList, site: { publicUrl: string; companyName: string }): string {
  const entries = list.entries.slice(0, 50);
  const updated = entries.reduce((max, e) => (e.updatedAt > max ? e.updatedAt : max), '1970-01-01T00:00:00.000Z');
  const base = site.publicUrl.replace(/\/+$/, '');
  const items = entries.map((e) => {
    const title = e.version ? `${e.version}: ${e.title}` : e.title;
    const body = [e.description, '', ...e.changes.map((c) => `• ${c.title}: ${c.description}`)].join('\n');
    return [
      '  <entry>',
      `    <id>urn:uuid:${e.id}</id>`,
      `    <title>${xml(title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(`${base}/changelog/${e.id}`)}"/>`,
      `    <published>${e.releaseDate}T00:00:00Z</published>`,
      `    <updated>${e.updatedAt}</updated>`,
      `    <content type="text">${xml(body)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de">',
    `  <id>${xml(`${base}/changelog`)}</id>`,
    `  <title>${xml(`Changelog – ${site.companyName}`)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(`${base}/changelog.atom`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(`${base}/changelog`)}"/>`,
    `  <author><name>${xml(site.companyName)}</name></author>`,
    ...items,
    '</feed>',
    '',
  ].join('\n');
}
