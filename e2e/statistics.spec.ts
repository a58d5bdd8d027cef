import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { statisticsMessages } from '@hp/contract';
import { checkScreens, signedIn } from './screens.ts';

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
    expect(csv[0]).toBe('Monat;Umsatz netto (EUR);MRR (EUR);ARR (EUR);ARPA (EUR);Zahlende Kunden;Neue Kunden;Verlorene Kunden;Ausgelaufene Server');
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
