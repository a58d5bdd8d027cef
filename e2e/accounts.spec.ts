import { test, expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { codeFromOutbox, createVerifiedAccount, distinctClient, login, pasteCode, PASSWORD, unique } from './support.ts';
import { recordScreenshot } from './screens.ts';


async function logoutViaSidebar(page: Page) {
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
}

test('register, verify the e-mail with the code from the outbox, log in and log out', { tag: '@smoke' }, async ({ page }) => {
  const username = unique('neu');
  const email = `${username}@example.com`;
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Registrieren' })).toBeVisible();
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('E-Mail').fill(email);
  const submit = page.getByRole('button', { name: 'Konto erstellen' });
  await page.getByLabel('Passwort', { exact: true }).fill('kurz');
  const lengthRule = page.getByRole('list', { name: 'Passwortanforderungen' }).getByRole('listitem').filter({ hasText: 'Mindestens 8 Zeichen' });
  await expect(lengthRule).toContainText('(nicht erfüllt)');
  await expect(submit).toBeDisabled();
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await expect(lengthRule).toContainText('(erfüllt)');
  await page.getByLabel('Passwort bestätigen').fill(PASSWORD + 'x');
  await expect(page.getByText('Die Passwörter stimmen nicht überein.')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Passwort bestätigen').fill(PASSWORD);
  const since = Date.now();
  await submit.click();
  await expect(page.getByText('Ihr Account wurde erstellt').first()).toBeVisible();
  await expect(page).toHaveURL(/\/user\/verification\/[0-9a-f-]{36}$/, { timeout: 6000 });

  await expect(page.getByRole('button', { name: /Code erneut senden \(\d+ s\)/ })).toBeDisabled();
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByText('Bitte geben Sie den vollständigen 4-stelligen Code ein.')).toBeVisible();
  await pasteCode(page, 'Bestätigungscode', 'ZZZZ');
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByText('Ungültiger Verifizierungscode. Bitte versuchen Sie es erneut.')).toBeVisible();

  const code = await codeFromOutbox(email, since);
  await pasteCode(page, 'Bestätigungscode', code.toLowerCase());
  await expect(page.getByLabel('Bestätigungscode: Zeichen 4 von 4')).toHaveValue(code[3]!);
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Said on the page itself, not only in a toast that may be gone by then.
  await expect(page.getByRole('main').getByText('Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.')).toBeVisible();

  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill('Falsch!Passwort1');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByText('Benutzername oder Passwort nicht korrekt. Bitte prüfen Sie Ihre Eingabe.')).toBeVisible();

  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Produkte' })).toBeVisible();
  const claims = await page.evaluate(() => JSON.parse(atob(localStorage.getItem('jwt')!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))));
  expect(claims).toMatchObject({ role: 'customer' });
  expect(claims.customerId).toMatch(/^\d+$/);
  // Customers see no staff entries.
  await expect(page.getByRole('link', { name: 'Ticket-Übersicht' })).toHaveCount(0);

  await logoutViaSidebar(page);
  await page.goto('/dashboard/profil');
  await expect(page).toHaveURL(/\/login$/);
});

test('a login that needs the e-mail verification first continues signed in to where the user was going', async ({ page, request }) => {
  const username = unique('spaet');
  const email = `${username}@example.com`;
  const since = Date.now();
  const reg = await request.post('/api/auth/register', { headers: distinctClient(), data: { username, email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(reg.status()).toBe(201);
  const code = await codeFromOutbox(email, since);

  // On the way to the account page (a checkout sends its own page as `next` the same way).
  await page.goto('/login?next=/dashboard/profil');
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/user\/verification\/[0-9a-f-]{36}\?next=%2Fdashboard%2Fprofil$/);
  await pasteCode(page, 'Bestätigungscode', code);
  await page.getByRole('button', { name: 'Bestätigen' }).click();

  await expect(page).toHaveURL(/\/dashboard\/profil$/);
  await expect(page.getByText('Ihre E-Mail-Adresse ist bestätigt.', { exact: true })).toBeVisible();
  await expect(page.getByLabel('E-Mail', { exact: true })).toHaveValue(email);
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    await recordScreenshot(page, test.info().outputPath(`verified-signed-in-${size.width}.png`));
  }
  // Signed in for real: a reload keeps the session (refresh cookie).
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/profil$/);
});

test('reset a forgotten password in four steps', async ({ page, request }) => {
  const { username, email } = await createVerifiedAccount(request);
  await page.goto('/password-reset');
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort zurücksetzen' })).toBeVisible();
  const since = Date.now();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByRole('button', { name: 'Code anfordern' }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText('Code');

  const code = await codeFromOutbox(email, since);
  await pasteCode(page, 'Code aus der E-Mail', code);
  await page.getByRole('button', { name: 'Code prüfen' }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText('Passwort');

  const newPassword = 'Neues!Passwort2';
  await page.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
  await page.getByLabel('Neues Passwort bestätigen').fill(newPassword);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByText('Ihr Passwort wurde geändert.')).toBeVisible();
  await page.getByRole('link', { name: 'Zum Login', exact: true }).click();

  await login(page, username, PASSWORD);
  await expect(page.getByText('Benutzername oder Passwort nicht korrekt. Bitte prüfen Sie Ihre Eingabe.')).toBeVisible();
  await login(page, username, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a user who left the reset page after requesting a code comes back and uses "Ich habe bereits einen Code"', async ({ page, request }) => {
  const { username, email } = await createVerifiedAccount(request);
  await page.goto('/password-reset');
  const since = Date.now();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByRole('button', { name: 'Code anfordern' }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText('Code');
  const code = await codeFromOutbox(email, since);

  // Leaving the page loses everything the browser knew about the request.
  await page.reload();
  await expect(page.locator('[aria-current="step"]')).toContainText('E-Mail');
  await expect(page.getByRole('button', { name: 'Ich habe bereits einen Code' })).toBeVisible();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByRole('button', { name: 'Code anfordern' }).click();
  const tooEarly = page.getByRole('alert').filter({ hasText: 'Es kann nur alle 5 Minuten ein Code angefordert werden.' });
  await expect(tooEarly).toBeVisible();
  await tooEarly.getByRole('button', { name: 'Ich habe bereits einen Code' }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText('Code');
  await expect(page.getByText(email)).toBeVisible();

  await pasteCode(page, 'Code aus der E-Mail', code);
  await page.getByRole('button', { name: 'Code prüfen' }).click();
  await expect(page.locator('[aria-current="step"]')).toContainText('Passwort');
  const newPassword = 'Neues!Passwort3';
  await page.getByLabel('Neues Passwort', { exact: true }).fill(newPassword);
  await page.getByLabel('Neues Passwort bestätigen').fill(newPassword);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByText('Ihr Passwort wurde geändert.')).toBeVisible();

  await login(page, username, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('enable TOTP in the profile, then log in with a TOTP code and with a backup code', { tag: '@smoke' }, async ({ page, request }) => {
  const { username } = await createVerifiedAccount(request);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Profil' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Profil' })).toBeVisible();

  await page.getByRole('switch', { name: 'Zwei-Faktor-Authentifizierung' }).click();
  const dialog = page.getByRole('dialog', { name: 'Zwei-Faktor-Authentifizierung einrichten' });
  await expect(dialog.getByRole('img', { name: 'QR-Code für die Authenticator-App' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  await pasteCode(page, 'Code aus der App', totp.generate());
  await dialog.getByRole('button', { name: 'Aktivieren' }).click();
  const codeItems = dialog.getByRole('list', { name: 'Backup-Codes' }).getByRole('listitem');
  await expect(codeItems).toHaveCount(10);
  const codes = await codeItems.allTextContents();
  expect(codes).toHaveLength(10);
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  await expect(page.getByRole('switch', { name: 'Zwei-Faktor-Authentifizierung' })).toBeChecked();

  await logoutViaSidebar(page);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/mfa$/);
  await expect(page.getByText('alle 30 Sekunden')).toBeVisible();
  // The enrolment used the current time step, so the login needs the next one (accepted within ±1 step).
  await pasteCode(page, 'Authenticator-Code', totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Verifizieren' }).click();
  await expect(page.getByText('Erfolgreich verifiziert')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await logoutViaSidebar(page);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/mfa$/);
  await page.getByRole('button', { name: 'Backup-Code verwenden' }).click();
  await page.getByLabel('Backup-Code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verifizieren' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The same backup code does not work twice.
  await logoutViaSidebar(page);
  await login(page, username, PASSWORD);
  await page.getByRole('button', { name: 'Backup-Code verwenden' }).click();
  await page.getByLabel('Backup-Code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verifizieren' }).click();
  await expect(page.getByText('Der Backup-Code ist ungültig oder wurde bereits verwendet.')).toBeVisible();
});
