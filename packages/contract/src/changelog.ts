import { z } from 'zod';
import { messages } from './messages.ts';
import { plainText } from './text.ts';

/* Changelog (spec "Changelog", §3 entity, §8 texts). Public to read; employee and owner write. */

export const changelogMessages = {
  // spec
  empty: 'Keine Einträge gefunden',
  notFoundTitle: 'Eintrag nicht gefunden',
  notFoundText: 'Der gesuchte Changelog-Eintrag existiert nicht.',
  saveFailed: 'Unbekannter Fehler beim Speichern.',
  loadFailed: 'Fehler beim Abrufen der Serverdaten',
  // ours, same tone
  titleRequired: 'Bitte geben Sie einen Titel ein.',
  titleTooLong: 'Der Titel darf höchstens 150 Zeichen lang sein.',
  descriptionRequired: 'Bitte geben Sie eine Beschreibung ein.',
  descriptionTooLong: 'Die Beschreibung darf höchstens 5.000 Zeichen lang sein.',
  versionInvalid: 'Die Version darf höchstens 30 Zeichen lang sein (z. B. v2.5.0).',
  releaseDateRequired: 'Bitte geben Sie ein gültiges Veröffentlichungsdatum ein.',
  typeRequired: 'Bitte wählen Sie einen Typ.',
  changesRequired: 'Bitte geben Sie mindestens eine Änderung an.',
  tooManyChanges: 'Höchstens 50 Änderungen pro Eintrag.',
  changeTitleRequired: 'Bitte geben Sie der Änderung einen Titel.',
  changeDescriptionRequired: 'Bitte beschreiben Sie die Änderung.',
  changeDescriptionTooLong: 'Die Beschreibung einer Änderung darf höchstens 2.000 Zeichen lang sein.',
  created: 'Der Changelog-Eintrag wurde veröffentlicht.',
  saved: 'Der Changelog-Eintrag wurde gespeichert.',
  deleted: 'Der Changelog-Eintrag wurde gelöscht.',
  deleteFailed: 'Der Eintrag konnte nicht gelöscht werden.',
  linkCopied: 'Link in die Zwischenablage kopiert.',
  copyFailed: 'Der Link konnte nicht kopiert werden.',
} as const;
const m = changelogMessages;

export const changelogTypes = ['feature', 'improvement', 'bugfix', 'security', 'announcement'] as const;
export type ChangelogType = (typeof changelogTypes)[number];
const typeLabels: Record<ChangelogType, string> = {
  feature: 'Neue Funktion', improvement: 'Verbesserung', bugfix: 'Fehlerbehebung', security: 'Sicherheitsupdate', announcement: 'Ankündigung',
};
/** Spec: the five labels, and 'Sonstiges' for any other type. */
export const changelogTypeLabel = (type: string): string => typeLabels[type as ChangelogType] ?? 'Sonstiges';
/** Spec: a card shows up to this many changes. */
export const CHANGELOG_PREVIEW_CHANGES = 3;

const ChangelogTypeInput = z.enum(changelogTypes, { error: m.typeRequired });

export const ChangelogChangeInput = z.strictObject({
  title: plainText({ error: m.changeTitleRequired }).trim().min(1, m.changeTitleRequired).max(150, m.titleTooLong),
  description: plainText({ multiline: true, error: m.changeDescriptionRequired }).trim().min(1, m.changeDescriptionRequired).max(2000, m.changeDescriptionTooLong),
  type: ChangelogTypeInput,
}, { error: messages.invalidInput });

/** A real calendar date, YYYY-MM-DD. */
const calendarDate = z.string({ error: m.releaseDateRequired }).regex(/^\d{4}-\d{2}-\d{2}$/, m.releaseDateRequired)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '2000-01-01' && v <= '2999-12-31';
  }, { error: m.releaseDateRequired });

/** Create and edit (spec "Changelog create"): change ids are assigned by the server (c1, c2 … by position). */
export const ChangelogInput = z.strictObject({
  title: plainText({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(150, m.titleTooLong),
  description: plainText({ multiline: true, error: m.descriptionRequired }).trim().min(1, m.descriptionRequired).max(5000, m.descriptionTooLong),
  /** Optional: empty for announcements. */
  version: plainText({ error: m.versionInvalid }).trim().max(30, m.versionInvalid).default(''),
  releaseDate: calendarDate,
  type: ChangelogTypeInput,
  highlight: z.boolean({ error: messages.invalidInput }).default(false),
  changes: z.array(ChangelogChangeInput, { error: m.changesRequired }).min(1, m.changesRequired).max(50, m.tooManyChanges),
}, { error: messages.invalidInput });
export type ChangelogInput = z.input<typeof ChangelogInput>;

export const ChangelogChange = z.object({ id: z.string(), title: z.string(), description: z.string(), type: z.string() });
export type ChangelogChange = z.infer<typeof ChangelogChange>;

export const ChangelogEntry = z.object({
  id: z.string(),
  version: z.string().nullable(),
  releaseDate: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.string(),
  highlight: z.boolean(),
  changes: z.array(ChangelogChange),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChangelogEntry = z.infer<typeof ChangelogEntry>;
export const ChangelogList = z.object({ entries: z.array(ChangelogEntry) });
export type ChangelogList = z.infer<typeof ChangelogList>;
/** The detail with its neighbours in the public order (older = released before). */
export const ChangelogDetail = ChangelogEntry.extend({ olderId: z.string().nullable(), newerId: z.string().nullable() });
export type ChangelogDetail = z.infer<typeof ChangelogDetail>;
export const ChangelogIdParams = z.object({ id: z.uuid({ error: m.notFoundText }) });
