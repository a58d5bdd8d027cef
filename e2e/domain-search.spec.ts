import { test, expect } from '@playwright/test';
import { checkScreens, DESKTOP } from './screens.ts';

// "musterfirma" is the order journey's (domains.spec.ts registers musterfirma.de): this one searches "example".
test('a visitor searches "example": .de is free, .com taken, with yearly prices and order links; the URL is linkable', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/domain');
  const search = page.getByRole('search', { name: 'Domainsuche' });
  await search.getByLabel('Wunschdomain').fill('example');
  await search.getByLabel('Wunschdomain').press('Enter');
  await expect(page).toHaveURL(/\/domain\?q=example$/);

  const results = page.getByRole('list', { name: 'Suchergebnis' });
  const row = (name: string) => results.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
  await expect(row('example.de')).toContainText('Verfügbar');
  await expect(row('example.de')).toContainText('10,80 € / Jahr');
  await expect(row('example.com')).toContainText('Vergeben');
  await expect(results.getByRole('listitem')).toHaveCount(6);
  // A free name is registered, a taken one transferred: plain links into the order form.
  await expect(row('example.de').getByRole('link', { name: 'Registrieren: example.de' })).toHaveAttribute('href', '/shop/domain?domain=example.de&action=register');
  await expect(row('example.com').getByRole('link', { name: 'Transfer: example.com' })).toHaveAttribute('href', '/shop/domain?domain=example.com&action=transfer');
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
    // The result list needs the script: the page says so in a <noscript> instead of staying silent
    // (Playwright's switch leaves the parser's scripting flag on, so the text is checked in the document).
    expect(await page.content()).toContain('Bitte schalten Sie JavaScript ein, um das Suchergebnis zu sehen.');
  });
});
