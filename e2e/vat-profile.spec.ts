import { test, expect } from '@playwright/test';
import { apiAuth, codeFromOutbox, createVerifiedAccount, demoAccount, distinctClient, login, PASSWORD } from './support.ts';
import { recordScreenshot } from './screens.ts';

/**
 * Issue 24, step 2: an Austrian company gives its VAT ID in the profile and sees it confirmed (the
 * simulated check: any number not ending in 0000/9999 is valid); staff see the proof on the customer
 * page. Screens at 390 and 1280 px go to the test's output folder.
 */
test('an Austrian company enters its VAT ID, sees it confirmed, and staff see the proof', async ({ page, request, browser }, testInfo) => {
  const { username } = await createVerifiedAccount(request, 'ustid');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/dashboard/profil');
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Profil' })).toBeVisible();

  await page.getByLabel('Straße und Hausnummer').fill('Ringstraße 1');
  await page.getByLabel('Postleitzahl').fill('1010');
  await page.getByLabel('Stadt').fill('Wien');
  await page.getByLabel('Land').selectOption('AT');
  await expect(page.getByLabel('USt-IdNr.')).toHaveCount(0);
  await page.getByRole('switch', { name: 'Firmenkunde' }).click();
  await page.getByLabel('USt-IdNr.').fill('ATU1234');
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(page.getByText('Bitte geben Sie den Namen Ihres Unternehmens an.')).toBeVisible();
  await expect(page.getByText('Die Umsatzsteuer-Identifikationsnummer hat nicht das Format für Österreich. Bitte prüfen Sie Ihre Eingabe.')).toBeVisible();

  await page.getByLabel('Firmenname (Pflichtfeld)').fill('Alpen Hosting GmbH');
  await page.getByLabel('USt-IdNr.').fill('ATU 1234 5678');
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  const result = page.getByTestId('vat-check-result');
  await expect(result).toContainText(/Ihre USt-IdNr\. wurde bestätigt \(simulierte Prüfung, Abfragenummer SIM-[0-9A-F]{12}, am \d{2}\.\d{2}\.\d{4}\)\./);
  await expect(page.getByLabel('USt-IdNr.')).toHaveValue('ATU12345678');
  const consultation = (await result.textContent())!.match(/SIM-[0-9A-F]{12}/)![0];

  // After a reload the confirmation is still there.
  await page.reload();
  await expect(page.getByTestId('vat-check-result')).toContainText(consultation);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('heading', { name: 'Unternehmen' }).scrollIntoViewIfNeeded();
    await recordScreenshot(page, testInfo.outputPath(`profile-${width}.png`), true);
  }

  // Staff: the customer page shows business status, VAT ID and the proof.
  const headers = await apiAuth(request, 'employee');
  const list = await (await request.get(`/api/staff/customers?search=${encodeURIComponent(username)}`, { headers })).json();
  const customerId = list.items.find((c: { name: string }) => c.name === username).id as string;
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  const employee = demoAccount('employee');
  await login(staff, employee.username, employee.password);
  await expect(staff).toHaveURL(/\/dashboard/);
  await staff.goto(`/dashboard/customer-details/${customerId}`);
  const card = staff.getByTestId('customer-vat');
  await expect(card).toContainText('Firmenkundeja');
  await expect(card).toContainText('USt-IdNr.ATU12345678');
  await expect(card).toContainText('Letzte Prüfunggültig');
  await expect(card).toContainText('Prüfdienstsimulierte Prüfung');
  await expect(card).toContainText(`Abfragenummer${consultation}`);
  await expect(card).toContainText('Abgleich Namestimmt überein');
  for (const width of [390, 1280]) {
    await staff.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    await recordScreenshot(staff, testInfo.outputPath(`customer-${width}.png`), true);
  }
  await staffContext.close();
});

test('registration takes country, company and VAT ID; the profile shows the background check', async ({ page, request }, testInfo) => {
  const username = `ust${Date.now().toString(36)}`;
  await page.goto('/register');
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('E-Mail').fill(`${username}@example.com`);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Passwort bestätigen').fill(PASSWORD);
  await page.getByLabel('Land').selectOption('FR');
  await page.getByRole('switch', { name: 'Firmenkunde' }).click();
  await page.getByLabel('Firmenname').fill('Hébergement SARL');
  await page.getByLabel('USt-IdNr.').fill('FR40303265045');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await recordScreenshot(page, testInfo.outputPath(`register-${width}.png`), true);
  }
  const since = Date.now();
  await page.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByText('Ihr Account wurde erstellt').first()).toBeVisible();
  await expect(page).toHaveURL(/\/user\/verification\/[0-9a-f-]{36}$/, { timeout: 6000 });
  const userId = page.url().split('/').pop()!;
  const code = await codeFromOutbox(`${username}@example.com`, since);
  expect((await request.post('/api/auth/verify-email', { headers: distinctClient(), data: { userId, code } })).status()).toBe(200);

  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);
  await page.goto('/dashboard/profil');
  await expect(page.getByLabel('Land')).toHaveValue('FR');
  await expect(page.getByLabel('Firmenname (Pflichtfeld)')).toHaveValue('Hébergement SARL');
  await expect(page.getByLabel('USt-IdNr.')).toHaveValue('FR40303265045');
  await expect(page.getByTestId('vat-check-result')).toContainText('Ihre USt-IdNr. wurde bestätigt (simulierte Prüfung, Abfragenummer SIM-');
});
