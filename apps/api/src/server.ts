import path from 'node:path';
import { readEnv } from './env.ts';
import { createRuntime } from './main.ts';
import { seedDemoData } from './db/seed.ts';
import { settleRunningTasks } from './modules/servers/servers.service.ts';
import { resumeProvisioning } from './modules/infrastructure/provision-server.ts';
import { runBillingTick } from './jobs/billing-jobs.ts';

const started = performance.now();
const env = readEnv();
const { app, database } = await createRuntime(env);

const credentialsFile = path.join(env.dataDir, 'demo-credentials.json');
if (database.kind === 'pglite' || process.env.SEED_DEMO === 'true') {
  await seedDemoData(database.db, credentialsFile);
}

await app.listen({ port: env.port, host: env.host });

// Power operations finish even when nobody watches the server: settle running tasks every 2 s.
const settler = setInterval(() => {
  settleRunningTasks({ ...app.deps, log: app.log }).catch((err) => app.log.error({ err: { message: (err as Error).message } }, 'task settler failed'));
}, 2000);
settler.unref();
// Servers whose provisioning was interrupted (crash, restart) continue; createServer is idempotent.
resumeProvisioning({ ...app.deps, log: app.log } as never).catch((err) => app.log.error({ err: { message: (err as Error).message } }, 'resuming provisioning failed'));
// Fulfilment, invoices and expiry run as durable jobs; a job interrupted by a crash is claimed again.
app.jobs.start();
const billingTick = () => runBillingTick({ ...app.deps, log: app.log })
  .then(() => app.jobs.kick())
  .catch((err) => app.log.error({ err: { message: (err as Error).message } }, 'billing tick failed'));
setTimeout(billingTick, 5_000).unref();
setInterval(billingTick, Number(process.env.BILLING_TICK_MS ?? 60_000)).unref();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
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
