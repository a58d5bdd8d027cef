import { test, expect } from '@playwright/test';
import { formatEuro, orderLinkMessages, priceCents, shopMessages } from '@hp/contract';
import { createVerifiedAccount, login, mailFromOutbox, PASSWORD, payWithCard } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

test('"Neue Bestellung": staff configure a server for a customer, who pays through the mailed link and gets the server', async ({ browser, page, request }) => {
  test.setTimeout(240_000);
  const { username, email } = await createVerifiedAccount(request, 'angebot');
  const staff = await signedIn(browser, 'employee');
  const config = { os: 'linux' as const, cpu: 3, ram: 6, storage: 60, months: 3 };
  const price = formatEuro(priceCents(config));
  const since = Date.now();
  try {
    await staff.page.goto('/dashboard/customer-overview');
    await staff.page.getByLabel('Kunden suchen').fill(username);
    // The list narrows to this customer (header and one row) before the click (a row moving under the pointer takes it).
    await expect(staff.page.getByRole('row')).toHaveCount(2);
    await staff.page.getByRole('row').filter({ hasText: username }).getByRole('link', { name: `Details zu ${username}` }).click();
    await staff.page.getByRole('link', { name: 'Neue Bestellung' }).click();
    await expect(staff.page.getByRole('heading', { level: 1, name: `Neue Bestellung für ${username}` })).toBeVisible();
    // No terms box for staff: the customer accepts them when paying.
    await expect(staff.page.getByLabel('Ich akzeptiere die AGB und Datenschutzbestimmungen')).toHaveCount(0);
    await staff.page.getByLabel('Distribution').selectOption('Ubuntu 24.04');
    await staff.page.getByLabel('CPU-Kerne', { exact: true }).fill('3');
    await staff.page.getByLabel('Arbeitsspeicher (GB)', { exact: true }).fill('6');
    await staff.page.getByLabel('Speicher (GB)', { exact: true }).fill('60');
    await staff.page.getByLabel('Laufzeit (Monate)', { exact: true }).fill('3');
    await expect(staff.page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(price);
    await staff.page.getByLabel('Persönliche Nachricht (optional)').fill('Wie am Telefon besprochen.');
    await checkScreens(staff.page, 'customer-order-link');
    await staff.page.getByRole('button', { name: 'Zahlungslink senden' }).click();
    await expect(staff.page.getByText(orderLinkMessages.sent)).toBeVisible();
    await expect(staff.page).toHaveURL(/tab=communication/);
    await expect(staff.page.getByText('Ihre Serverbestellung: bitte prüfen und bezahlen').first()).toBeVisible({ timeout: 15_000 });
  } finally {
    await staff.context.close();
  }

  // The customer follows the link from the mail, on a phone.
  const mail = await mailFromOutbox(email, since, /shop\/kvm-server\?angebot=1/);
  expect(mail).toContain('Wie am Telefon besprochen.');
  const link = mail.match(/https?:\/\/\S+\/shop\/kvm-server\?\S+/)![0];
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(link);
  await expect(page.getByText(orderLinkMessages.prepared)).toBeVisible();
  await expect(page.getByLabel('Distribution')).toHaveValue('Ubuntu 24.04');
  await expect(page.getByLabel('CPU-Kerne', { exact: true })).toHaveValue('3');
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(price);
  await checkScreens(page, 'order-link-customer');
  await page.getByLabel('Ich akzeptiere die AGB und Datenschutzbestimmungen').check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await expect(page.locator('dt:has-text("Betrag") + dd')).toHaveText(price);
  await page.getByRole('link', { name: 'Zum Server' }).click();
  await expect(page.getByRole('list', { name: 'Server' }).getByRole('listitem').filter({ hasText: 'Ubuntu 24.04' })).toBeVisible({ timeout: 60_000 });
});
