import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { statisticsMessages } from '@hp/contract';
import { checkScreens, signedIn } from './screens.ts';
import { apiAuth, createVerifiedAccount } from './support.ts';

test('the owner opens Statistiken: capacity bars, revenue chart, another range, a CSV download', async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = await signedIn(browser, 'owner');
  const { page } = owner;
  try {
    await page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Statistiken' }).click();
    await expect(page).toHaveURL(/\/dashboard\/statistics$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Statistiken' })).toBeVisible();

    // Capacity of the demo nodes, with bars that name what they measure.
    await expect(page.getByRole('heading', { level: 2, name: 'Kapazität' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'CPU-Kerne zugewiesen', exact: true })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Speicher zugewiesen auf pve-fra-01' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Kapazität je Knoten' }).getByRole('row').filter({ hasText: 'pve-fra-02' })).toBeVisible();

    // The revenue chart is drawn; its figures are in the table for screen readers (12 months by default).
    await expect(page.getByTestId('revenue-chart').locator('svg.recharts-surface')).toBeVisible();
    await expect(page.getByTestId('revenue-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
    const months = page.getByRole('table', { name: 'Finanzen je Monat' }).getByRole('row');
    await expect(months).toHaveCount(13);
    await checkScreens(page, 'statistics');

    await page.getByLabel('Zeitraum', { exact: true }).selectOption({ label: 'Letzte 3 Monate' });
    await expect(months).toHaveCount(4);

    // A custom range is checked before it is asked for.
    await page.getByLabel('Zeitraum', { exact: true }).selectOption({ label: 'Eigener Zeitraum' });
    await page.getByLabel('Von (Monat)').fill('2026-06');
    await page.getByLabel('Bis (Monat)').fill('2026-01');
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await expect(page.getByText(statisticsMessages.rangeOrder)).toBeVisible();
    await page.getByLabel('Von (Monat)').fill('2025-11');
    await page.getByLabel('Bis (Monat)').fill('2026-02');
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await expect(page.getByText('Zeitraum: November 2025 bis Februar 2026')).toBeVisible();
    await expect(months).toHaveCount(5);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Finanzen als CSV herunterladen' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^statistik-finances-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('Monat;Umsatz netto (EUR);MRR (EUR);ARR (EUR);ARPA (EUR);Zahlende Kunden;Neue Kunden;Verlorene Kunden;Ausgelaufene Server;Ausgelaufene Webhosting-Pakete;Ausgelaufene Domains;Ausgelaufene Cloud-Speicher;Ausgelaufene Virtual Data Center');
    expect(csv.slice(1).map((line) => line.split(';')[0])).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  } finally {
    await owner.context.close();
  }
});

test('an employee who opens /dashboard/statistics gets the not-found page, and the API refuses', async ({ browser }) => {
  const staff = await signedIn(browser, 'employee');
  try {
    await expect(staff.page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Statistiken' })).toHaveCount(0);
    await staff.page.goto('/dashboard/statistics');
    await expect(staff.page).toHaveURL(/\/notfound$/);
    const status = await staff.page.evaluate(async () => (await fetch('/api/admin/statistics', { headers: { authorization: `Bearer ${localStorage.getItem('jwt')}` } })).status);
    expect(status).toBe(403);
  } finally {
    await staff.context.close();
  }
});

/** "1.234,56 €" → 123456 */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d,-]/g, '').replace(',', '.')) * 100);

test('the owner sees the revenue of the current month move when an invoice is issued', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { username } = await createVerifiedAccount(request, 'umsatz');
  const headers = await apiAuth(request, 'employee');
  const found = await (await request.get(`/api/staff/customers?q=${encodeURIComponent(username)}`, { headers })).json();
  const id = found.items[0].id as string;
  const address = { phone: '', street: 'Hauptstraße 5', zipCode: '04109', city: 'Leipzig', country: 'DE', companyName: '', industry: '' };
  expect((await request.put(`/api/staff/customers/${id}`, { headers, data: address })).status()).toBe(200);

  const owner = await signedIn(browser, 'owner');
  const { page } = owner;
  try {
    await page.goto('/dashboard/statistics');
    const thisMonth = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', month: 'long', year: 'numeric' }).format(new Date());
    const row = page.getByRole('table', { name: 'Finanzen je Monat' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: thisMonth }) });
    const revenue = row.getByRole('cell').first();
    await expect(revenue).toHaveText(/€/);
    const before = cents((await revenue.textContent())!);

    // Staff issue an invoice of 2 × 123,45 € net (by transfer, still open: revenue counts by invoice date).
    const issued = await request.post(`/api/staff/customers/${id}/invoices`, { headers, data: { lines: [{ description: 'Beratung Migration', quantity: 2, unit: 'hour', unitNetCents: 12_345 }] } });
    expect(issued.status(), await issued.text()).toBe(201);

    // Other journeys may issue invoices at the same time, so the month grows by at least this one.
    await expect.poll(async () => {
      await page.reload();
      await expect(revenue).toHaveText(/€/);
      return cents((await revenue.textContent())!) - before;
    }, { timeout: 30_000 }).toBeGreaterThanOrEqual(24_690);
    await expect(page.getByTestId('revenue-chart').locator('.recharts-bar-rectangle').last()).toBeVisible();
  } finally {
    await owner.context.close();
  }
});
