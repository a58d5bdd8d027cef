import fs from 'node:fs';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { formatEuro, priceCents, shopMessages } from '@hp/contract';
import { createVerifiedAccount, login, PASSWORD, payWithCard } from './support.ts';


async function loginAsNewCustomer(page: Page, request: APIRequestContext) {
  const { username } = await createVerifiedAccount(request, 'shop');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
}

const TERMS = 'Ich akzeptiere die AGB und Datenschutzbestimmungen';

/** The same axe rules as the public pages; only serious and critical findings fail. */
async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a new customer configures a server, pays by card, sees it come online, and downloads the invoice as PDF and XML', { tag: '@smoke' }, async ({ page, request }) => {
  test.setTimeout(240_000);
  await loginAsNewCustomer(page, request);

  await page.goto('/shop/kvm-server');
  await expect(page.getByRole('heading', { level: 1, name: 'KVM Server konfigurieren' })).toBeVisible();
  const price = page.getByRole('status', { name: 'Gesamtpreis' });
  // Defaults: Linux (Debian 12), 2 cores, 4 GB RAM, 50 GB storage, 1 month.
  await expect(page.getByLabel('Distribution')).toHaveValue('Debian 12');
  await expect(price).toHaveText(formatEuro(priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months: 1 })));

  await page.getByLabel('CPU-Kerne', { exact: true }).fill('3');
  await expect(price).toHaveText(formatEuro(priceCents({ os: 'linux', cpu: 3, ram: 4, storage: 50, months: 1 })));
  await page.getByLabel('Arbeitsspeicher (GB)', { exact: true }).fill('6');
  await page.getByLabel('Speicher (GB)', { exact: true }).fill('60');
  await page.getByLabel('Laufzeit (Monate)', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Laufzeit (Monate) erhöhen' }).click();
  await expect(page.getByLabel('Laufzeit (Monate)', { exact: true })).toHaveValue('6');
  const config = { os: 'linux' as const, cpu: 3, ram: 6, storage: 60, months: 6 };
  const expected = formatEuro(priceCents(config));
  await expect(price).toHaveText(expected);
  await expect(page.getByText('alle 6 Monate')).toBeVisible();
  await expect(page.getByText('inkl. 10 % Laufzeitrabatt')).toBeVisible();

  // Windows selects Windows Server 2025 and adds the surcharge; back to Linux selects Debian 12 again.
  await page.getByRole('radio', { name: /Windows/ }).check();
  await expect(page.getByLabel('Windows-Version')).toHaveValue('Windows Server 2025');
  await expect(price).toHaveText(formatEuro(priceCents({ ...config, os: 'windows' })));
  await page.getByRole('radio', { name: /Linux/ }).check();
  await expect(page.getByLabel('Distribution')).toHaveValue('Debian 12');
  await expect(price).toHaveText(expected);

  // Ordering without the terms box is refused with the inline red error.
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  const terms = page.getByLabel(TERMS);
  await expect(terms).toHaveAccessibleDescription(shopMessages.termsRequired);
  await expect(page.locator('#kvm-terms-error')).toHaveText(shopMessages.termsRequired);
  await expect(page).toHaveURL(/\/shop\/kvm-server$/);
  await expectAccessible(page);

  await terms.check();
  await expect(page.locator('#kvm-terms-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/shop\/payment\?session_id=cs_sim_/);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await expect(page.locator('dt:has-text("Betrag") + dd')).toHaveText(expected);
  const orderNumber = (await page.locator('dt:has-text("Bestellnummer") + dd').textContent())!.trim();
  expect(orderNumber).not.toBe('');
  await expect(page.getByRole('link', { name: 'Rechnungen' })).toHaveAttribute('href', '/dashboard/invoices');
  await expect(page.getByRole('link', { name: 'Bestellungen' })).toHaveAttribute('href', '/dashboard/order');
  await expectAccessible(page);

  // The new server appears in the dashboard and is provisioned by the simulated hypervisor.
  await page.getByRole('link', { name: 'Zum Server' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const card = page.getByRole('list', { name: 'Server' }).getByRole('listitem');
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card).toContainText('Debian 12');
  await expect(card.getByText('Online')).toBeVisible({ timeout: 90_000 });

  // The order is listed with its price and opens its details.
  await page.getByRole('link', { name: 'Bestellen', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/order$/);
  const orderCard = page.getByRole('list', { name: 'Bestellungen' }).getByRole('listitem').filter({ hasText: orderNumber });
  await expect(orderCard).toContainText(expected);
  await expect(orderCard).toContainText('alle 6 Monate');
  await expectAccessible(page);
  await orderCard.getByRole('link', { name: /Details/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Bestellung ${orderNumber}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Server Details' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Standort/ })).toContainText('Frankfurt am Main');
  await expectAccessible(page);

  // Invoices: the invoice is issued by a background job, so reload until it is there.
  await page.goto('/dashboard/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Rechnungen' })).toBeVisible();
  const pdfButton = page.getByRole('button', { name: /^PDF/ }).first();
  await expect(async () => {
    await page.reload();
    await expect(pdfButton).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });

  await expectAccessible(page);
  const [pdf] = await Promise.all([page.waitForEvent('download'), pdfButton.click()]);
  await expect(page.getByText(shopMessages.pdfNotice)).toBeVisible();
  expect(pdf.suggestedFilename()).toMatch(/^Rechnung-.+\.pdf$/);
  expect(fs.readFileSync((await pdf.path())!).subarray(0, 4).toString('latin1')).toBe('%PDF');

  const [xml] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^E-Rechnung \(XML\)/ }).first().click()]);
  expect(xml.suggestedFilename()).toMatch(/^Rechnung-.+\.xml$/);
  expect(fs.readFileSync((await xml.path())!, 'utf8')).toContain('<Invoice');
});

test('ordering needs a login; a declined card shows the failure view with a retry, and nothing is ordered or billed', async ({ page, request }) => {
  test.setTimeout(120_000);

  // Without a stored token the page is public, but ordering asks for a login.
  await page.goto('/shop/kvm-server');
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page.getByRole('alert').filter({ hasText: shopMessages.loginRequired }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zum Login' })).toHaveAttribute('href', '/login');

  await loginAsNewCustomer(page, request);
  await page.goto('/shop/kvm-server');
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, '4000 0000 0000 0002');
  await expect(page).toHaveURL(/\/shop\/payment\?order=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentFailed })).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('link', { name: 'Support kontaktieren' })).toHaveAttribute('href', '/dashboard/support');
  await expect(page.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zur Startseite', exact: true })).toHaveAttribute('href', '/');
  await expectAccessible(page);

  await page.goto('/dashboard/order');
  await expect(page.getByRole('heading', { name: 'Noch keine Bestellungen' })).toBeVisible();
  await page.goto('/dashboard/invoices');
  await expect(page.getByRole('heading', { name: 'Noch keine Rechnungen' })).toBeVisible();
});
