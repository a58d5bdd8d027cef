import type { Db } from '../../db/client.ts';
import { changelogEntries } from '../../db/schema/index.ts';
import { changelogValues, type ValidChangelogInput } from './changelog.service.ts';

/** The spec's three built-in entries, for the demo seed and a fresh installation. */
export async function seedChangelog(db: Db) {
  const [any] = await db.select({ id: changelogEntries.id }).from(changelogEntries).limit(1);
  if (any) return;
  const entries: ValidChangelogInput[] = [
    {
      version: 'v2.4.0', releaseDate: '2024-02-10', type: 'feature', highlight: true,
      title: 'Backups und Snapshots im Kundenportal',
      description: 'Sie können Backups Ihrer Server jetzt selbst anlegen, wiederherstellen und löschen.',
      changes: [
        { title: 'Backups anlegen', description: 'Manuelle Backups mit einem Klick, inklusive Fortschrittsanzeige.', type: 'feature' },
        { title: 'Wiederherstellung', description: 'Ein Backup kann nach Bestätigung wiederhergestellt werden.', type: 'feature' },
        { title: 'Übersicht', description: 'Größe und Datum jedes Backups auf einen Blick.', type: 'improvement' },
      ],
    },
    {
      version: 'v2.4.2', releaseDate: '2024-02-28', type: 'improvement', highlight: false,
      title: 'Schnellere Serverliste und Fehlerbehebungen',
      description: 'Die Serverliste lädt spürbar schneller; dazu einige kleinere Korrekturen.',
      changes: [
        { title: 'Schnellere Serverliste', description: 'Status und Auslastung werden gebündelt geladen.', type: 'improvement' },
        { title: 'Firewall-Regeln', description: 'Regeln mit Portbereichen werden korrekt angezeigt.', type: 'bugfix' },
      ],
    },
    {
      version: 'v2.5.0', releaseDate: '2024-03-15', type: 'feature', highlight: true,
      title: 'Neues Kundenportal mit Live-Status',
      description: 'Das Kundenportal zeigt den Zustand Ihrer Server jetzt live an und wurde für Smartphones überarbeitet.',
      changes: [
        { title: 'Live-Status', description: 'Start, Stopp und Neustart erscheinen ohne Neuladen der Seite.', type: 'feature' },
        { title: 'Mobile Ansicht', description: 'Alle Seiten sind auf kleinen Bildschirmen vollständig bedienbar.', type: 'improvement' },
        { title: 'Zwei-Faktor-Anmeldung', description: 'Konten können mit einer Authenticator-App geschützt werden.', type: 'security' },
        { title: 'Rechnungen als XRechnung', description: 'Jede Rechnung steht zusätzlich als E-Rechnung bereit.', type: 'feature' },
      ],
    },
  ];
  for (const [i, entry] of entries.entries()) {
    await db.insert(changelogEntries).values({ ...changelogValues(entry), createdAt: new Date(Date.UTC(2024, 0, 1 + i)) });
  }
}
