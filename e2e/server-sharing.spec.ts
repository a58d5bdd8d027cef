import { test, expect } from '@playwright/test';
import { serverSettingsMessages } from '@hp/contract';
import { checkScreens } from './screens.ts';
import { createServerFor, createVerifiedAccount, login, PASSWORD } from './support.ts';

test('the owner shares a server on the settings tab; the other account can open it until the owner removes the access', async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const owner = await createVerifiedAccount(request, 'teilt');
  const other = await createVerifiedAccount(request, 'geteilt');
  await createServerFor(request, owner.username);

  await login(page, owner.username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('listitem').filter({ hasText: 'Debian 12' }).getByRole('link', { name: /verwalten/ }).click();
  await expect(page.getByRole('heading', { name: 'Schnellaktionen' })).toBeVisible();
  const serverUrl = page.url();
  await page.getByRole('tab', { name: 'Einstellungen' }).click();
  const access = page.getByRole('region', { name: 'Zugriffsverwaltung' });
  await expect(access).toContainText('Der Server ist mit niemandem geteilt.');

  await access.getByRole('button', { name: 'Benutzer hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Benutzer hinzufügen' });
  await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(dialog.getByText('Bitte geben Sie einen Benutzernamen ein.')).toBeVisible();
  await dialog.getByLabel('Benutzername').fill(other.username);
  await checkScreens(page, 'server-share-dialog');
  await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(page.getByText(serverSettingsMessages.shared(other.username)).first()).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(access).toContainText(other.username);
  await expect(access).toContainText(/Zugriff seit \d\d\.\d\d\.\d{4}/);
  await checkScreens(page, 'server-share-list');

  // The shared account operates the server but does not manage its access.
  const context = await browser.newContext();
  const otherPage = await context.newPage();
  await login(otherPage, other.username, PASSWORD);
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await otherPage.goto(serverUrl);
  await expect(otherPage.getByRole('heading', { name: 'Schnellaktionen' })).toBeVisible();
  await otherPage.getByRole('tab', { name: 'Einstellungen' }).click();
  const sharedAccess = otherPage.getByRole('region', { name: 'Zugriffsverwaltung' });
  await expect(sharedAccess).toContainText(serverSettingsMessages.sharedNote);
  await expect(sharedAccess.getByRole('button', { name: 'Benutzer hinzufügen' })).toHaveCount(0);

  // The owner removes the access after a confirmation; the server is gone for the other account.
  await access.getByRole('button', { name: `Zugriff von ${other.username} entfernen` }).click();
  const confirm = page.getByRole('dialog', { name: 'Zugriff entfernen?' });
  await expect(confirm).toContainText(`${other.username} kann den Server danach nicht mehr sehen oder bedienen.`);
  await checkScreens(page, 'server-share-remove');
  await confirm.getByRole('button', { name: 'Entfernen' }).click();
  await expect(page.getByText(serverSettingsMessages.unshared(other.username)).first()).toBeVisible();
  await expect(access).toContainText('Der Server ist mit niemandem geteilt.');
  await otherPage.goto(serverUrl);
  await expect(otherPage).toHaveURL(/\/404$/);
  await context.close();
});
