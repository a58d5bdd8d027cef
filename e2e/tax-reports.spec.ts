import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { quarterLabel, quarterOf } from '@hp/contract';
import { checkScreens, DESKTOP, PHONE, signedIn, recordScreenshot } from './screens.ts';
import { apiAuth, createVerifiedAccount, distinctClient, PASSWORD } from './support.ts';

/**
 * Issue 24, the owner's tax reports: an Austrian company with a confirmed VAT ID gets a reverse-charge
 * invoice from staff; the owner finds it under Statistiken → Steuermeldungen in the current quarter's
 * Zusammenfassende Meldung and downloads the CSV. Screens at 390 and 1280 px.
 */
test('the owner sees a reverse-charge sale in the quarter\'s Zusammenfassende Meldung and downloads it as CSV', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // A VAT ID of its own per run (the simulated check confirms any number not ending in 0000 or 9999).
  const vatId = `ATU${String(10_000_000 + Math.floor(Math.random() * 89_000_000)).slice(0, 6)}12`;
  const { username } = await createVerifiedAccount(request, 'zm');
  const login = await request.post('/api/auth/login', { headers: distinctClient(), data: { username, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const customer = { authorization: `Bearer ${(await login.json()).token}` };
  const profile = await request.put('/api/account/profile', {
    headers: customer,
    data: { phone: '', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', country: 'AT', companyName: 'Alpen Meldung GmbH', industry: '', business: true, vatId },
  });
  expect(profile.status(), await profile.text()).toBe(200);

  // Staff bill it by reverse charge: 2 × 123,45 € net, no German VAT.
  const staff = await apiAuth(request, 'employee');
  const found = await (await request.get(`/api/staff/customers?q=${encodeURIComponent(username)}`, { headers: staff })).json();
  const id = found.items.find((c: { name: string }) => c.name === username).id as string;
  const issued = await request.post(`/api/staff/customers/${id}/invoices`, {
    headers: staff,
    data: { lines: [{ description: 'Beratung Migration', quantity: 2, unit: 'hour', unitNetCents: 12_345 }], vatMode: 'reverse_charge', buyerVatId: vatId },
  });
  expect(issued.status(), await issued.text()).toBe(201);

  const quarter = quarterOf(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()));
  const owner = await signedIn(browser, 'owner');
  const { page } = owner;
  try {
    await page.goto('/dashboard/statistics');
    const section = page.getByRole('region', { name: 'Steuermeldungen' });
    await expect(section.getByRole('heading', { level: 2, name: 'Steuermeldungen' })).toBeVisible();
    await expect(section.getByRole('progressbar', { name: /^Laufendes Jahr \d{4}: Anteil an der Lieferschwelle$/ })).toBeVisible();
    await expect(section.getByText(/^Einstellung: VAT_EU_CONSUMERS=/)).toBeVisible();
    await expect(section.getByLabel('Quartal', { exact: true })).toHaveValue(quarter);

    const zm = section.getByRole('table', { name: `Zusammenfassende Meldung ${quarterLabel(quarter)}` });
    const row = zm.getByRole('row').filter({ has: page.getByRole('rowheader', { name: vatId }) });
    await expect(row).toContainText('246,90');
    await expect(row).toContainText('1 Rechnung');
    await section.getByRole('heading', { level: 2, name: 'Steuermeldungen' }).scrollIntoViewIfNeeded();
    await checkScreens(page, 'statistics-tax');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await recordScreenshot(section, test.info().outputPath(`tax-section-${size.width}.png`));
    }

    const download = page.waitForEvent('download');
    await section.getByRole('button', { name: `Zusammenfassende Meldung ${quarterLabel(quarter)} als CSV herunterladen` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`zm-${quarter}.csv`);
    const raw = fs.readFileSync((await file.path())!, 'utf8');
    expect(raw.startsWith('\uFEFF')).toBe(true);
    const csv = raw.slice(1).trim().split('\r\n');
    expect(csv[0]).toBe('Länderkennzeichen;USt-IdNr.;Summe der Bemessungsgrundlagen (EUR);Art der Leistung');
    expect(csv).toContain(`AT;${vatId};246,90;S`);

    // An earlier quarter without such sales says so.
    await section.getByLabel('Quartal', { exact: true }).selectOption({ index: 7 });
    await expect(section.getByText(/^Im \d\. Quartal \d{4} gibt es keine Umsätze für die Zusammenfassende Meldung\.$/)).toBeVisible();
  } finally {
    await owner.context.close();
  }
});
