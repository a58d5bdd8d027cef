import fs from 'node:fs';
import { test, expect, type APIRequestContext } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { messages, privacyMessages as pm } from '@hp/contract';
import { apiAuth, createVerifiedAccount, login, PASSWORD } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

/* Data protection (docs/decisions/018): the data export, "Konto löschen" and the owner's "Kunden löschen". */

/** Buys a server through the API and the simulated card page; resolves with the invoice once issued. */
async function buyServer(request: APIRequestContext, username: string) {
  const signIn = await request.post('/api/auth/login', { data: { username, password: PASSWORD } });
  expect(signIn.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await signIn.json()).token}` };
  const checkout = await request.post('/api/shop/checkout', { headers, data: { os: 'linux', distro: 'Debian 12', cpu: 1, ram: 2, storage: 25, months: 1, acceptTerms: true } });
  expect(checkout.status(), await checkout.text()).toBe(201);
  const { sessionId } = await checkout.json();
  const paid = await request.post(`/pay/sim/${sessionId}`, {
    form: { card: '4242 4242 4242 4242', exp: '12/39', cvc: '123', name: 'Erika Mustermann', street: 'Musterstraße 1', zip: '60311', city: 'Frankfurt am Main', country: 'DE', action: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBeLessThan(400);
  let number = '';
  await expect.poll(async () => {
    const list = await (await request.get('/api/invoices', { headers })).json();
    number = list.items?.[0]?.number ?? '';
    return number;
  }, { timeout: 60_000, message: 'Rechnung ausgestellt' }).not.toBe('');
  return number;
}

test('a customer exports their data with the invoice in the ZIP; with a running server the account cannot be deleted', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { username, email } = await createVerifiedAccount(request, 'dsgvo');
  const invoiceNumber = await buyServer(request, username);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/profil');
  await expect(page.getByRole('heading', { level: 2, name: 'Datenschutz' })).toBeVisible();
  await checkScreens(page, 'profile-privacy');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Meine Daten exportieren' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^meine-daten-\d{4}-\d{2}-\d{2}\.zip$/);
  await expect(page.getByText(pm.exportReady)).toBeVisible();
  const zip = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
  expect(Object.keys(zip).sort()).toEqual(['daten.json', `rechnungen/Rechnung-${invoiceNumber}.pdf`, `rechnungen/Rechnung-${invoiceNumber}.xml`]);
  expect(strFromU8(zip[`rechnungen/Rechnung-${invoiceNumber}.pdf`]!.subarray(0, 4))).toBe('%PDF');
  const data = JSON.parse(strFromU8(zip['daten.json']!));
  expect(data.konto).toMatchObject({ benutzername: username, email });
  expect(data.rechnungen.map((r: { nummer: string }) => r.nummer)).toEqual([invoiceNumber]);

  // The server runs: the deletion is refused with the reason, and the account stays.
  await page.getByRole('button', { name: 'Konto löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Konto löschen' });
  await dialog.getByLabel('Aktuelles Passwort').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Konto endgültig löschen' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(pm.activeServers);
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profil$/);
});

test('a customer without a server deletes the account, sees the confirmation and cannot log in again', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { username } = await createVerifiedAccount(request, 'weg');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/profil');
  await page.getByRole('button', { name: 'Konto löschen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Konto löschen' });
  await expect(dialog.getByRole('button', { name: 'Konto endgültig löschen' })).toBeDisabled();
  await dialog.getByLabel('Aktuelles Passwort').fill('Falsch!Passwort9');
  await dialog.getByRole('button', { name: 'Konto endgültig löschen' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(messages.currentPasswordWrong);
  await dialog.getByLabel('Aktuelles Passwort').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Konto endgültig löschen' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: pm.accountDeleted })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
  await checkScreens(page, 'account-deleted');

  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByText(messages.invalidLogin)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('only the owner sees "Kunden löschen"; the confirmation deletes the customer and returns to the overview', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { username } = await createVerifiedAccount(request, 'owner-del');
  const headers = await apiAuth(request, 'owner');
  const found = await (await request.get(`/api/staff/customers?q=${encodeURIComponent(username)}`, { headers })).json();
  const id = found.items[0].id as string;

  const employee = await signedIn(browser, 'employee');
  try {
    await employee.page.goto(`/dashboard/customer-details/${id}?tab=settings`);
    await expect(employee.page.getByRole('heading', { level: 1, name: username })).toBeVisible();
    await expect(employee.page.getByRole('heading', { name: 'Einstellungen' })).toBeVisible();
    await expect(employee.page.getByRole('button', { name: 'Kunden löschen' })).toHaveCount(0);
  } finally {
    await employee.context.close();
  }

  const owner = await signedIn(browser, 'owner');
  try {
    await owner.page.goto(`/dashboard/customer-details/${id}?tab=settings`);
    await expect(owner.page.getByRole('heading', { level: 1, name: username })).toBeVisible();
    const trigger = owner.page.getByRole('button', { name: 'Kunden löschen' });
    await trigger.scrollIntoViewIfNeeded();
    await checkScreens(owner.page, 'customer-danger-zone');
    await trigger.click();
    const dialog = owner.page.getByRole('dialog', { name: 'Kunden löschen' });
    await expect(dialog.getByText(pm.deleteCustomerConfirm, { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Kunden löschen' }).click();
    await expect(owner.page.getByText(pm.customerDeleted)).toBeVisible();
    await expect(owner.page).toHaveURL(/\/dashboard\/customer-overview/);
    // Gone from the overview's search; the detail page says what happened.
    await owner.page.getByLabel('Kunden suchen').fill(username);
    await expect(owner.page.getByRole('row').filter({ hasText: username })).toHaveCount(0);
    await owner.page.goto(`/dashboard/customer-details/${id}`);
    await expect(owner.page.getByText(/Dieses Kundenkonto wurde am .* gelöscht/)).toBeVisible();
    await expect(owner.page.getByRole('button', { name: 'Kunden löschen' })).toHaveCount(0);
  } finally {
    await owner.context.close();
  }
});
