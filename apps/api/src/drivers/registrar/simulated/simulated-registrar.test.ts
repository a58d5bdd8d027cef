import { afterAll, describe, expect, it } from 'vitest';
import { databaseKinds, freshDatabase } from '../../../../test/harness.ts';
import { describeRegistrarContract, CONTRACT_CONTACT } from '../registrar.contract.ts';
import { DEFAULT_NAMESERVERS, RegistrarError } from '../registrar.ts';
import { createSimulatedRegistrar, SIM_TAKEN_DOMAINS, SIM_TRANSFER_MS } from './simulated-registrar.ts';

// The simulated registry passes the same contract as the INWX driver with the fake server, on PGlite and
// (TEST_DATABASE_URL) on PostgreSQL; settle() moves its clock past the transfer minute.
for (const kind of databaseKinds()) {
  describeRegistrarContract(`simulated (${kind})`, async () => {
    const { database, drop } = await freshDatabase(kind);
    let offset = 0;
    const driver = createSimulatedRegistrar(database.db, { speed: 1, now: () => Date.now() + offset });
    return {
      driver,
      settle: async () => { offset += SIM_TRANSFER_MS + 1000; },
      taken: SIM_TAKEN_DOMAINS.find((d) => d.domain === 'example.com')!,
      premium: 'cloud.de',
      cleanup: async () => { await database.close(); await drop(); },
    };
  });
}

describe.each(databaseKinds())('simulated registry details (%s)', (kind) => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => { for (const close of closers) await close(); });

  async function open() {
    const { database, drop } = await freshDatabase(kind);
    closers.push(async () => { await database.close(); await drop(); });
    return database;
  }

  it('the demo names: musterfirma.de free, musterfirma.com taken, cloud.de premium; a locked one refuses a transfer', async () => {
    const registrar = createSimulatedRegistrar((await open()).db);
    const result = await registrar.check(['musterfirma.de', 'musterfirma.com', 'cloud.de', 'google.de']);
    expect(result.map((r) => r.status)).toEqual(['free', 'taken', 'premium', 'taken']);
    const contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
    const locked = SIM_TAKEN_DOMAINS.find((d) => d.transferLock)!;
    const err = await registrar.transfer({ domain: locked.domain, authCode: locked.authCode, contactId }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistrarError);
    expect((err as RegistrarError).code).toBe('PROHIBITED');
  });

  it('ten registrations of one name through two driver instances at once: exactly one wins', async () => {
    const database = await open();
    const a = createSimulatedRegistrar(database.db);
    const b = createSimulatedRegistrar(database.db);
    const contactId = await a.saveContact(null, CONTRACT_CONTACT);
    const spec = { domain: 'wettlauf.de', years: 1, contactId, nameservers: DEFAULT_NAMESERVERS };
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).register(spec)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as RegistrarError).code).toBe('TAKEN');
  });

  it('a transfer finishes after a minute divided by the speed, read lazily; gTLDs gain a year', async () => {
    let clock = Date.now();
    const registrar = createSimulatedRegistrar((await open()).db, { speed: 10, now: () => clock });
    const contactId = await registrar.saveContact(null, CONTRACT_CONTACT);
    const { domain, authCode } = SIM_TAKEN_DOMAINS.find((d) => d.domain === 'musterfirma.com')!;
    await registrar.transfer({ domain, authCode, contactId });
    clock += SIM_TRANSFER_MS / 10 - 1000;
    expect((await registrar.info(domain)).status).toBe('pending');
    clock += 2000;
    const info = await registrar.info(domain);
    expect(info.status).toBe('active');
    expect(Date.parse(info.expiresAt!)).toBeGreaterThan(clock + 700 * 86_400_000);
    expect(await registrar.getAuthCode(domain)).not.toBe(authCode);
  });
});
