import { test, expect } from '@playwright/test';
import { createServerFor, createVerifiedAccount, login, PASSWORD } from './support.ts';

test.describe('reinstall on a phone-sized window', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the customer reinstalls a server through the dialog and sees the start and the end', async ({ page, request }) => {
    test.setTimeout(180_000);
    const { username } = await createVerifiedAccount(request, 'neu');
    await createServerFor(request, username);

    await login(page, username, PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    const card = page.getByRole('listitem').filter({ hasText: 'Debian 12' });
    await expect(card.getByText('Online')).toBeVisible({ timeout: 60_000 });
    await card.getByRole('link', { name: /verwalten/ }).click();
    await expect(page.getByRole('heading', { name: 'Schnellaktionen' })).toBeVisible();

    await page.getByRole('button', { name: 'Server neuinstallieren' }).click();
    const dialog = page.getByRole('dialog', { name: 'Server neuinstallieren' });
    await dialog.getByLabel('Betriebssystem').selectOption('Ubuntu 24.04');
    await dialog.getByLabel('Neues Root-Passwort').fill('Neu!Passwort2024');
    await dialog.getByLabel('Passwort bestätigen').fill('Anders!Passwort2024');
    const submit = dialog.getByRole('button', { name: 'Jetzt neu installieren' });
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Ich habe verstanden, dass alle Daten auf dem Server gelöscht werden.').check();

    // A validation failure is shown, never swallowed.
    await submit.click();
    await expect(dialog.getByText('Die Passwörter stimmen nicht überein. Bitte prüfen Sie Ihre Eingaben.')).toBeVisible();

    await dialog.getByLabel('Passwort bestätigen').fill('Neu!Passwort2024');
    const sent = page.waitForRequest((r) => r.url().endsWith('/reinstall') && r.method() === 'POST');
    await submit.click();
    const body = (await sent).postDataJSON();
    expect(body).toEqual({ os: 'Ubuntu 24.04', password: 'Neu!Passwort2024', confirmPassword: 'Neu!Passwort2024' });
    await expect(page.getByText('Die Neuinstallation wurde gestartet. Alle Daten auf dem Server werden gelöscht.').first()).toBeVisible();
    await expect(dialog).toHaveCount(0);
    // The header shows the running reinstall, unless a fast simulated host has already finished it by
    // the time the page reloads the server (seen under CI load): then the end message is there instead.
    const done = page.getByText('Ihr Server wurde neu installiert.').first();
    await expect(page.getByRole('main').locator('header').getByText('Neuinstallation').or(done)).toBeVisible();
    await expect(done).toBeVisible({ timeout: 90_000 });
    await expect(page.getByRole('main').locator('header').getByText('Online')).toBeVisible();
    await expect(page.getByText(/Ubuntu 24\.04/).first()).toBeVisible();
  });
});
