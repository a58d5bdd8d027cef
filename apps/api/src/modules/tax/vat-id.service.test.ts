import { expect, it } from 'vitest';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import type { VatCheck, VatCheckInput, VatCheckResult } from '../../drivers/vat/vat-check.ts';
import { checkAndRecord, latestCheck, needsRecheck } from './vat-id.service.ts';

const COMPANY = { name: 'Alpenhost GmbH', street: 'Mariahilfer Straße 1', zip: '1060', city: 'Wien' };

/** A check that answers what the test says and remembers what it was asked. */
function scriptedCheck(answers: VatCheckResult[]): VatCheck & { asked: VatCheckInput[] } {
  const asked: VatCheckInput[] = [];
  return {
    service: 'vies',
    asked,
    async checkVatId(input) {
      asked.push(input);
      return answers.shift()!;
    },
  };
}

describeEachDatabase('VAT-ID checks and their proof', (ctx: () => TestContext) => {
  it('records a valid check with the consultation number, matches and the service date, and asks with our own VAT ID', async () => {
    const { user } = await createUser(ctx());
    const checkedAt = new Date('2026-11-20T10:15:00Z');
    const vatCheck = scriptedCheck([{ status: 'valid', checkedAt, consultationNumber: 'WAPIAAAAZ8Cq1x2b', service: 'vies', matches: { name: 'match', street: 'mismatch', zip: 'match', city: 'match' } }]);
    const deps = { ...ctx().app.deps, vatCheck };
    const recorded = await checkAndRecord(deps, user.id, { country: 'at', vatId: 'ATU 1234 5678', company: COMPANY });

    expect(vatCheck.asked).toEqual([{ country: 'AT', vatId: 'ATU 1234 5678', requester: { vatId: deps.env.company.vatId }, company: COMPANY }]);
    expect(recorded).toMatchObject({ userId: user.id, country: 'AT', vatId: 'ATU12345678', status: 'valid', service: 'vies', consultationNumber: 'WAPIAAAAZ8Cq1x2b', matches: { name: 'match', street: 'mismatch', zip: 'match', city: 'match' }, message: null });
    expect(recorded.checkedAt.toISOString()).toBe(checkedAt.toISOString());
    expect(await latestCheck(deps, user.id)).toEqual(recorded);
  });

  it('records an unavailable check with its German reason, and the latest check is the newest one', async () => {
    const { user } = await createUser(ctx());
    const vatCheck = scriptedCheck([
      { status: 'valid', checkedAt: new Date('2026-10-01T08:00:00Z'), consultationNumber: 'WAPI1', service: 'vies' },
      { status: 'unavailable', checkedAt: new Date('2026-11-01T08:00:00Z'), consultationNumber: null, service: 'vies', message: 'Die Prüfung … ist zurzeit nicht möglich' },
    ]);
    const deps = { ...ctx().app.deps, vatCheck };
    await checkAndRecord(deps, user.id, { country: 'FR', vatId: 'FR12345678901' });
    await checkAndRecord(deps, user.id, { country: 'FR', vatId: 'FR12345678901' });
    expect(await latestCheck(deps, user.id)).toMatchObject({ status: 'unavailable', consultationNumber: null, matches: null, message: expect.stringMatching(/zurzeit nicht möglich/) });
  });

  it('records through the configured driver: the simulated default marks …0000 invalid', async () => {
    const { user } = await createUser(ctx());
    const recorded = await checkAndRecord(ctx().app.deps, user.id, { country: 'GR', vatId: '094010000' });
    expect(recorded).toMatchObject({ service: 'simulated', status: 'invalid', vatId: 'EL094010000', country: 'GR' });
  });

  it('has no check for a customer never checked', async () => {
    const { user } = await createUser(ctx());
    expect(await latestCheck(ctx().app.deps, user.id)).toBeNull();
  });
});

it('asks for a new check before an invoice when none exists, the service was unavailable, the check is too old or the ID changed', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 24 * 60 * 60 * 1000);
  const check = { status: 'valid' as const, checkedAt: daysAgo(29), country: 'AT', vatId: 'ATU12345678' };
  expect(needsRecheck(null, now, 30)).toBe(true);
  expect(needsRecheck(check, now, 30)).toBe(false);
  expect(needsRecheck({ ...check, checkedAt: daysAgo(31) }, now, 30)).toBe(true);
  expect(needsRecheck({ ...check, checkedAt: daysAgo(8) }, now, 7)).toBe(true);
  expect(needsRecheck({ ...check, status: 'unavailable' }, now, 30)).toBe(true);
  expect(needsRecheck(check, now, 30, { country: 'AT', vatId: 'atu 1234 5678' })).toBe(false);
  expect(needsRecheck(check, now, 30, { country: 'AT', vatId: 'ATU87654321' })).toBe(true);
});
