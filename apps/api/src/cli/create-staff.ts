/**
 * Creates a staff account for production installs:
 *   npm run staff:create -- --username anna --email anna@example.com --role employee [--password …]
 * Prints the initial password once (random unless given).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { readEnv } from '../env.ts';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import { randomPassword } from '../db/seed.ts';
import { RegisterInput, registrationPasswordRules, passwordMeetsRules } from '@hp/contract';

const { values } = parseArgs({
  options: { username: { type: 'string' }, email: { type: 'string' }, role: { type: 'string', default: 'employee' }, password: { type: 'string' } },
});

function fail(message: string): never {
  console.error(`Fehler: ${message}`);
  process.exit(1);
}

if (!values.username || !values.email) fail('Bitte --username und --email angeben (optional --role employee|owner, --password).');
if (values.role !== 'employee' && values.role !== 'owner') fail('--role muss employee oder owner sein.');
const password = values.password ?? randomPassword();
const parsed = RegisterInput.safeParse({ username: values.username, email: values.email, password, confirmPassword: password });
if (!parsed.success) fail(parsed.error.issues[0]?.message ?? 'Ungültige Eingabe');
if (!passwordMeetsRules(password, registrationPasswordRules)) fail('Das Passwort erfüllt nicht alle Anforderungen.');

const env = readEnv();
const database = await openDatabase({ url: env.databaseUrl, dataDir: path.join(env.dataDir, 'pglite') });
try {
  const clash = await database.db.select({ id: users.id }).from(users)
    .where(sql`lower(${users.username}) = ${parsed.data.username.toLowerCase()} or lower(${users.email}) = ${parsed.data.email.toLowerCase()}`);
  if (clash.length) fail('Benutzername oder E-Mail-Adresse ist bereits vergeben.');
  const [user] = await database.db.insert(users).values({
    username: parsed.data.username,
    email: parsed.data.email.toLowerCase(),
    role: values.role,
    passwordHash: await hashPassword(password),
    emailVerifiedAt: new Date(),
  }).returning({ customerNumber: users.customerNumber });
  console.log(`Konto angelegt: ${parsed.data.username} (${values.role}, Kundennummer ${user!.customerNumber})`);
  if (!values.password) console.log(`Initiales Passwort: ${password}`);
} finally {
  await database.close();
}
