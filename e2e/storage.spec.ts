import { test, expect } from '@playwright/test';
import { formatEuro, shopMessages, storageMessages, storagePriceCents } from '@hp/contract';
import { checkScreens } from './screens.ts';
import { createVerifiedAccount, login, PASSWORD, payWithCard, unique } from './support.ts';

/**
 * Cloud storage (issue 23): a new customer buys 500 GB, is told before paying when a name is taken,
 * pays, sees the account with its use against the quota and the access data, sets a password that is
 * shown once, and finds the renewal with a plan change; at 390 and 1280 px with axe clean.
 */
test('a customer buys cloud storage, sees the use and the WebDAV address, and sets a password shown once', async ({ page, request }) => {
  test.setTimeout(240_000);
  const { username } = await createVerifiedAccount(request, 'cloud');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Kein Cloud-Speicher')).toBeVisible();

  // 1. The shop: the plan, the term, the name (checked live), the terms box.
  await page.getByRole('link', { name: 'Cloud-Speicher bestellen' }).first().click();
  await expect(page).toHaveURL(/\/shop\/cloud-storage$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cloud-Speicher bestellen' })).toBeVisible();
  await page.getByText('500 GB', { exact: true }).first().click();
  await page.getByRole('button', { name: '3 Monate' }).click();
  await expect(page.getByTestId('storage-total')).toHaveText(formatEuro(storagePriceCents({ plan: '500gb', months: 3 })));

  // A name the storage server keeps for itself is taken: said at the field before paying.
  const name = page.getByRole('textbox', { name: 'Kontoname' });
  await name.fill('admin');
  await expect(page.getByText(storageMessages.accountNameTaken).first()).toBeVisible({ timeout: 10_000 });
  const account = unique('wolke').toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 24);
  await name.fill(account);
  await expect(page.getByText('Der Kontoname ist frei.')).toBeVisible({ timeout: 10_000 });
  await page.getByLabel(/Ich akzeptiere die/).check();
  await checkScreens(page, 'storage-shop');
  await page.getByRole('button', { name: 'Zur Kasse' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zum Cloud-Speicher' }).click();

  // 2. The account page: active after provisioning, the use as a bar, the access data.
  await expect(page).toHaveURL(/\/dashboard\/cloud-storage\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: `Cloud-Speicher ${account}` })).toBeVisible();
  await expect(page.getByText('Aktiv', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  const usage = page.getByRole('progressbar', { name: 'Belegter Speicher' });
  await expect(usage).toBeVisible();
  await expect(usage).toHaveAttribute('aria-valuetext', /von 500 GB/);
  await expect(page.getByText(`/remote.php/dav/files/${account}/`).first()).toBeVisible();
  await checkScreens(page, 'storage-account');

  // 3. A new password: asked first, then shown once, never mailed.
  await page.getByRole('button', { name: 'Neues Passwort setzen' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Neues Passwort setzen?' }).or(page.getByRole('dialog', { name: 'Neues Passwort setzen?' }));
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Neues Passwort setzen' }).click();
  const shown = page.getByLabel('Neues Passwort');
  await expect(shown).toHaveText(/^[A-Za-z0-9]{5}(-[A-Za-z0-9]{5}){3}$/);
  await expect(page.getByText(storageMessages.passwordSet)).toBeVisible();
  await checkScreens(page, 'storage-password');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `Cloud-Speicher ${account}` })).toBeVisible();
  await expect(page.getByLabel('Neues Passwort')).toHaveCount(0);

  // 4. Meine Produkte lists it; "Verlängern" opens the shop for this account with its plans.
  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Cloud-Speicher' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(account);
  await card.getByRole('link', { name: `Cloud-Speicher ${account} verlängern` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cloud-Speicher verlängern' })).toBeVisible();
  await expect(page.getByText(account).first()).toBeVisible();
});
