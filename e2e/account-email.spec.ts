import { test, expect } from '@playwright/test';
import { codeFromOutbox, createVerifiedAccount, login, mailFromOutbox, pasteCode, PASSWORD, unique } from './support.ts';

test('change the e-mail address in the profile with the password and the code from the new address, then log in with it', async ({ page, request }) => {
  const { username, email } = await createVerifiedAccount(request, 'mail');
  const newEmail = `${unique('neu')}@example.com`;
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Profil' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Profil' })).toBeVisible();

  // Another field still saves on its own, without a password.
  await page.getByLabel('Stadt').fill('Köln');
  await page.getByLabel('E-Mail').fill(newEmail);
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  await expect(page.getByText('Profil erfolgreich aktualisiert')).toBeVisible();

  const dialog = page.getByRole('dialog', { name: 'E-Mail-Adresse ändern' });
  await expect(dialog).toContainText(newEmail);
  await dialog.getByLabel('Aktuelles Passwort').fill('Falsch!Passwort1');
  await dialog.getByRole('button', { name: 'Code senden' }).click();
  await expect(dialog.getByText('Das aktuelle Passwort ist nicht korrekt.')).toBeVisible();
  await dialog.getByLabel('Aktuelles Passwort').fill(PASSWORD);
  const since = Date.now();
  await dialog.getByRole('button', { name: 'Code senden' }).click();
  await expect(dialog.getByText('Wir haben einen Bestätigungscode an die neue Adresse gesendet.')).toBeVisible();

  const code = await codeFromOutbox(newEmail, since);
  await pasteCode(page, 'Code aus der E-Mail', code);
  await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByText('Ihre E-Mail-Adresse wurde geändert.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('E-Mail')).toHaveValue(newEmail);
  await expect(page.getByLabel('Stadt')).toHaveValue('Köln');

  // The old address is told, with the way to report it.
  const notice = await mailFromOutbox(email, since, /Falls Sie das nicht waren/);
  expect(notice).toContain(newEmail);

  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, newEmail, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});
