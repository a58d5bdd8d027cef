import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statusIncidents, statusIncidentUpdates, statusMaintenances, statusServices } from '../../db/schema/index.ts';

const sampleServices = ['Server Hosting', 'Webserver', 'Cloud Storage', 'Datenbank', 'E-Mail Service', 'DNS'];

/** Two weeks ahead at 00:00 UTC (02:00 German summer time), the usual night-time maintenance window. */
function nextMaintenanceWindow(now: Date) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 14, 0, 0));
  return { startDate: start, endDate: new Date(start.getTime() + 2 * 60 * 60 * 1000) };
}

/**
 * The sample data of the spec's status page (dated April 2025), loaded once into an empty installation.
 * The scheduled maintenance lies in the future of the seeding day so the page shows a planned one.
 */
export async function seedStatusPage(db: Db, now: Date = new Date()) {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(statusServices);
  if (count > 0) return;

  await db.transaction(async (tx) => {
    await tx.insert(statusServices).values(sampleServices.map((name, position) => ({ name, position, status: 'operational' as const })));

    const [incident] = await tx
      .insert(statusIncidents)
      .values({ title: 'Erhöhte Antwortzeiten beim Cloud Storage', status: 'resolved', severity: 'major', createdAt: new Date('2025-04-14T07:12:00Z') })
      .returning({ id: statusIncidents.id });
    await tx.insert(statusIncidentUpdates).values([
      {
        incidentId: incident!.id,
        status: 'investigating',
        message: 'Wir beobachten erhöhte Antwortzeiten und vereinzelte Zeitüberschreitungen beim Zugriff auf den Cloud Storage. Unser Team untersucht die Ursache.',
        createdAt: new Date('2025-04-14T07:12:00Z'),
      },
      {
        incidentId: incident!.id,
        status: 'identified',
        message: 'Die Ursache ist ein fehlerhafter Switch-Port im Storage-Netz. Der Datenverkehr wird auf die redundante Verbindung umgeleitet.',
        createdAt: new Date('2025-04-14T07:48:00Z'),
      },
      {
        incidentId: incident!.id,
        status: 'resolved',
        message: 'Der defekte Port wurde ersetzt, alle Zugriffe laufen wieder mit normalen Antwortzeiten. Daten sind nicht verloren gegangen.',
        createdAt: new Date('2025-04-14T09:05:00Z'),
      },
    ]);

    await tx.insert(statusMaintenances).values([
      {
        title: 'Firmware-Update der Storage-Systeme',
        status: 'completed',
        startDate: new Date('2025-04-23T19:00:00Z'),
        endDate: new Date('2025-04-23T21:00:00Z'),
        affectedServices: ['Cloud Storage'],
        description: 'Einspielen einer neuen Firmware auf den Storage-Controllern. Während der Arbeiten kann es zu kurzen Verzögerungen beim Zugriff auf den Cloud Storage kommen.',
      },
      {
        title: 'Wartung der Datenbank-Cluster',
        status: 'scheduled',
        ...nextMaintenanceWindow(now),
        affectedServices: ['Datenbank', 'Webserver'],
        description: 'Aktualisierung der Datenbank-Server auf eine neue Minor-Version. Einzelne Verbindungen können für wenige Sekunden unterbrochen werden; Webseiten mit Datenbankzugriff sind kurzzeitig langsamer.',
      },
    ]);
  });
}
