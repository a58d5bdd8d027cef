import path from 'node:path';
import { readEnv } from './env.ts';
import { createRuntime } from './main.ts';
import { seedDemoData } from './db/seed.ts';
import { modules } from './app.ts';

const env = readEnv();
const { app, database } = await createRuntime(env);

const credentialsFile = path.join(env.dataDir, 'demo-credentials.json');
if (database.kind === 'pglite' || process.env.SEED_DEMO === 'true') {
  await seedDemoData(database.db, credentialsFile, modules);
}

await app.listen({ port: env.port, host: env.host });

// Background work: durable jobs (claimed by one instance each, taken over after a crash) and schedules
// (the task settler, the billing housekeeping; one instance per period). Nothing needs resuming.
app.jobs.start();
await app.scheduler.start();
// performance.now() counts from process start: the figure includes loading the code and the database.
const seconds = (performance.now() / 1000).toFixed(1);
process.stdout.write(
  `\nHosting-Portal läuft auf ${env.publicUrl} (gestartet in ${seconds} s)\n` +
    `Datenbank: ${database.kind === 'pglite' ? `PGlite in ${path.join(env.dataDir, 'pglite')}` : 'PostgreSQL'} · Mail: ${env.smtpUrl ? 'SMTP' : `Outbox in ${path.join(env.dataDir, 'outbox')}`}\n` +
    (database.kind === 'pglite' || process.env.SEED_DEMO === 'true' ? `Demo-Zugänge (Inhaber, Mitarbeiter, Kunde): ${credentialsFile}\n` : '') +
    (env.apiDocs ? `API-Dokumentation: ${env.publicUrl}/api/docs\n` : '') + '\n',
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
