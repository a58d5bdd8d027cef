import { test, expect } from '@playwright/test';
import { checkScreens, DESKTOP } from './screens.ts';

test('a visitor searches "musterfirma": .de is free, .com taken, with yearly prices; the URL is linkable', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/domain');
  const search = page.getByRole('search', { name: 'Domainsuche' });
  await search.getByLabel('Wunschdomain').fill('musterfirma');
  await search.getByLabel('Wunschdomain').press('Enter');
  await expect(page).toHaveURL(/\/domain\?q=musterfirma$/);

  const results = page.getByRole('list', { name: 'Suchergebnis' });
  const row = (name: string) => results.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
  await expect(row('musterfirma.de')).toContainText('Verfügbar');
  await expect(row('musterfirma.de')).toContainText('10,80 € / Jahr');
  await expect(row('musterfirma.com')).toContainText('Vergeben');
  await expect(results.getByRole('listitem')).toHaveCount(6);
  // No order button while the order flow is not built: an honest line with the way to a ticket.
  await expect(page.getByRole('button', { name: /Registrieren|Transfer|Warenkorb/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Support-Ticket eröffnen' })).toBeVisible();
  // The extensions grid shows the contract's monthly prices.
  await expect(page.getByRole('heading', { level: 3, name: '.de' }).locator('..')).toContainText('0,90');
  await checkScreens(page, 'domain-search');

  // An invalid name gets the German reason; the link with ?q= searches on load.
  await page.goto('/domain?q=-falsch.de%20m%C3%BCller-b%C3%A4ckerei.de');
  await expect(page.getByText('Der Name darf nicht mit einem Bindestrich beginnen oder enden.')).toBeVisible();
  await expect(page.getByText('müller-bäckerei.de', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Wunschdomain')).toHaveValue('-falsch.de müller-bäckerei.de');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the search form is a plain GET to /domain?q=', async ({ page }) => {
    await page.goto('/domain');
    await page.getByLabel('Wunschdomain').fill('musterfirma');
    await page.getByRole('button', { name: 'Domain suchen' }).click();
    await expect(page).toHaveURL(/\/domain\?q=musterfirma$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Finden Sie Ihre Wunschdomain' })).toBeVisible();
  });
});
