import path from 'node:path';
import { readEnv, type Env } from './env.ts';
import { openDatabase, type Database } from './db/client.ts';
import { loadSecrets } from './lib/secrets.ts';
import { createOutboxMailer } from './drivers/mail/outbox.ts';
import { createSmtpMailer } from './drivers/mail/smtp.ts';
import type { Mailer } from './drivers/mail/mail.ts';
import { buildApp } from './app.ts';
import { createHypervisor } from './drivers/hypervisor/index.ts';
import { createHostingDriver } from './drivers/hosting/index.ts';
import { createRegistrarDriver } from './drivers/registrar/index.ts';
import { createPaymentProvider } from './drivers/payments/index.ts';
import { createRealtime } from './drivers/realtime/index.ts';
import { createVatCheck } from './drivers/vat/index.ts';

/** The one place where drivers are chosen from the environment. */
export function createMailer(env: Env): Mailer {
  if (env.smtpUrl) return createSmtpMailer({ url: env.smtpUrl, from: env.mailFrom });
  return createOutboxMailer({ dir: path.join(env.dataDir, 'outbox'), from: env.mailFrom, print: !env.isTest });
}

export async function createRuntime(env: Env = readEnv()) {
  const database: Database = await openDatabase({ url: env.databaseUrl, dataDir: path.join(env.dataDir, 'pglite') });
  const secrets = await loadSecrets(database.db, env.jwtSecret);
  const mail = createMailer(env);
  const hypervisor = createHypervisor(env, database.db);
  const payments = await createPaymentProvider(env, database.db, secrets);
  const hosting = createHostingDriver(env, database.db);
  const registrar = createRegistrarDriver(env, database.db);
  const realtime = createRealtime(database);
  const vatCheck = createVatCheck(env);
  const app = await buildApp({ db: database.db, mail, env, secrets, hypervisor, hosting, registrar, payments, vatCheck, realtime });
  app.addHook('onClose', async () => {
    await mail.close?.();
    await database.close();
  });
  return { app, database, env };
}
