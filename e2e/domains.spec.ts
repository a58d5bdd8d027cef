import { test, expect } from '@playwright/test';
import { domainYearCents, formatEuro, messages, shopMessages } from '@hp/contract';
import { checkScreens } from './screens.ts';
import { createVerifiedAccount, PASSWORD, payWithCard, unique } from './support.ts';

const TERMS = 'Ich akzeptiere die AGB und Datenschutzbestimmungen';

test('a visitor searches "musterfirma" (.de free, .com taken), registers .de after logging in and completing the profile, pays, changes the nameservers and reveals the auth code with the password', async ({ page, request }) => {
  test.setTimeout(240_000);
  const { username } = await createVerifiedAccount(request, 'dom');
  // A retry after a run that already bought musterfirma.de buys a fresh name instead.
  const name = test.info().retry === 0 ? 'musterfirma.de' : `${unique('musterfirma')}.de`;

  // 1. The search, signed out: .de free with its price and "Registrieren", .com taken with "Transfer".
  await page.goto('/domain');
  const search = page.getByRole('search', { name: 'Domainsuche' });
  await search.getByLabel('Wunschdomain').fill(name === 'musterfirma.de' ? 'musterfirma' : name);
  await search.getByLabel('Wunschdomain').press('Enter');
  const results = page.getByRole('list', { name: 'Suchergebnis' });
  const row = (domain: string) => results.getByRole('listitem').filter({ has: page.getByText(domain, { exact: true }) });
  await expect(row(name)).toContainText('Verfügbar');
  if (name === 'musterfirma.de') {
    await expect(row('musterfirma.com')).toContainText('Vergeben');
    await expect(row('musterfirma.com').getByRole('link', { name: 'Transfer: musterfirma.com' })).toHaveAttribute('href', '/shop/domain?domain=musterfirma.com&action=transfer');
  }
  await checkScreens(page, 'domain-search-results');
  await row(name).getByRole('link', { name: `Registrieren: ${name}` }).click();

  // 2. The order needs an account: login returns to the order form.
  await expect(page).toHaveURL(new RegExp(`/shop/domain\\?domain=${name.replace('.', '\\.')}&action=register$`));
  await page.getByRole('link', { name: 'Zum Login' }).click();
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/shop\/domain\?domain=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Domain registrieren' })).toBeVisible();

  // 3. The registry needs the holder's address and phone: asked for before anything can be paid.
  const notice = page.getByText('Für die Registrierung fehlen Angaben in Ihrem Profil:').locator('..');
  await expect(notice).toContainText('Straße und Hausnummer');
  await expect(notice).toContainText('Telefon');
  await expect(page.getByRole('button', { name: 'Jetzt bestellen' })).toBeDisabled();
  await checkScreens(page, 'domain-shop-profile-missing');
  await page.getByRole('link', { name: 'Profil ergänzen' }).click();
  await page.getByLabel('Telefon').fill('+49 30 1234567');
  await page.getByLabel('Straße und Hausnummer').fill('Hauptstraße 5');
  await page.getByLabel('Postleitzahl').fill('10115');
  await page.getByLabel('Stadt').fill('Berlin');
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  // The save's own toast: the profile page's static text contains "gespeicherten" too, and matching that let the
  // journey leave before the save had reached the server (a flaky failure under load: the shop still found the
  // profile incomplete and showed no term selection).
  await expect(page.getByText(messages.profileSaved)).toBeVisible();
  await page.goBack();

  // 4. Back in the shop: free, the price per year, two years.
  await page.reload();
  await expect(page.getByText('Status bei der Vergabestelle: Verfügbar')).toBeVisible();
  await page.getByLabel('Laufzeit').selectOption('2');
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(formatEuro(2 * domainYearCents('de')));
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page.getByText(shopMessages.termsRequired).first()).toBeVisible();
  await page.getByLabel(TERMS).check();
  await checkScreens(page, 'domain-shop');
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zur Domain' }).click();

  // The domain becomes active with the registry's expiry, two years ahead.
  await expect(page).toHaveURL(/\/dashboard\/domains\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Aktiv', { exact: true })).toBeVisible({ timeout: 30_000 });
  const expiryYear = new Date().getFullYear() + 2;
  await expect(page.getByText(new RegExp(`Bezahlt bis \\d{2}\\.\\d{2}\\.${expiryYear}`))).toBeVisible();
  await checkScreens(page, 'domain-page');

  // Own nameservers: a wrong entry is refused in German, then two valid ones are saved.
  await page.getByText('Eigene Nameserver', { exact: true }).click();
  await page.getByLabel('Nameserver 1', { exact: true }).fill('ns1.example.net');
  await page.getByRole('button', { name: 'Nameserver speichern' }).click();
  await expect(page.getByText('Bitte geben Sie zwei bis vier verschiedene Nameserver an.')).toBeVisible();
  await page.getByLabel('Nameserver 2', { exact: true }).fill('ns2.example.net');
  await page.getByRole('button', { name: 'Nameserver speichern' }).click();
  await expect(page.getByText('Aktuell: ns1.example.net, ns2.example.net')).toBeVisible();

  // The auth code after the password; a wrong one is refused.
  await page.getByRole('button', { name: 'Auth-Code anzeigen' }).click();
  const dialog = page.getByRole('dialog', { name: `Auth-Code für ${name}` });
  await expect(dialog).toContainText('Die Anzeige wird protokolliert.');
  await dialog.getByLabel('Passwort').fill('falsch-falsch');
  await dialog.getByRole('button', { name: 'Auth-Code anzeigen' }).click();
  await expect(dialog.getByText('Das aktuelle Passwort ist nicht korrekt.')).toBeVisible();
  await dialog.getByLabel('Passwort').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Auth-Code anzeigen' }).click();
  await expect(dialog.getByLabel('Auth-Code')).toHaveText(/\S{8,}/);
  await checkScreens(page, 'domain-auth-code');
  await dialog.getByRole('button', { name: 'Schließen' }).first().click();

  // The transfer lock is on after the registration, as /domain promises; switched off and on again, and the
  // renewal choice "Auslaufen lassen": each saved with a visible result.
  await expect(page.getByRole('button', { name: 'Transfersperre ausschalten' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Transfersperre ausschalten' }).click();
  await expect(page.getByRole('button', { name: 'Transfersperre einschalten' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Transfersperre einschalten' }).click();
  await expect(page.getByText('An: Kein anderer Anbieter kann die Domain übernehmen, auch nicht mit dem Auth-Code.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Transfersperre ausschalten' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByText('Auslaufen lassen', { exact: true }).click();
  await expect(page.getByText('Die Domain läuft zum Ablaufdatum aus; Sie erhalten keine Erinnerungen.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radio', { name: /Auslaufen lassen/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Transfersperre ausschalten' })).toBeVisible();

  // "Mit Webhosting nutzen" opens the hosting shop with the domain as the package's own domain.
  await page.getByRole('link', { name: 'Mit Webhosting nutzen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhosting bestellen' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Ihre Domain' })).toHaveValue(name);

  // Meine Produkte lists it with its expiry.
  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Domains' }).getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Aktiv');
  await expect(card).toContainText(String(expiryYear));
  await expect(card).toContainText('Läuft aus (keine Erinnerung)');
  await checkScreens(page, 'my-products-domains');

  // Renewal through the same checkout: one more year, paid, the expiry moves.
  await card.getByRole('link', { name: `${name} verlängern` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Domain verlängern' })).toBeVisible();
  await expect(page.getByText(new RegExp(`Bezahlt bis \\d{2}\\.\\d{2}\\.${expiryYear}`))).toBeVisible();
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(formatEuro(domainYearCents('de')));
  await page.getByLabel(TERMS).check();
  await checkScreens(page, 'domain-renewal');
  await page.getByRole('button', { name: 'Jetzt verlängern' }).click();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zur Domain' }).click();
  await expect(page.getByText(new RegExp(`Bezahlt bis \\d{2}\\.\\d{2}\\.${expiryYear + 1}`))).toBeVisible({ timeout: 30_000 });
});

test('a customer transfers a taken name in with its auth code (missing code refused in German); the domain page follows the transfer until it is active', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { username } = await createVerifiedAccount(request, 'trans');
  const token = (await (await request.post('/api/auth/login', { data: { username, password: PASSWORD } })).json()).token as string;
  const profile = await request.put('/api/account/profile', {
    headers: { authorization: `Bearer ${token}` },
    data: { phone: '+49 40 555123', street: 'Elbchaussee 1', zipCode: '22763', city: 'Hamburg', country: 'DE', companyName: '', industry: '' },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  // A retry after a run that already moved beispiel.de transfers the other demo name.
  const [name, code] = test.info().retry === 0 ? ['beispiel.de', 'Beispiel-De-77'] : ['heise.de', 'Heise-De-2025'];

  await page.goto(`/login?next=${encodeURIComponent(`/shop/domain?domain=${name}&action=transfer`)}`);
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Domain übertragen' })).toBeVisible();
  await expect(page.getByText('Status bei der Vergabestelle: Vergeben')).toBeVisible();
  await expect(page.getByText(/Ein Transfer verlängert die Domain um ein Jahr/)).toBeVisible();
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(formatEuro(domainYearCents('de')));
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page.getByText('Bitte geben Sie den Auth-Code für den Transfer ein.').first()).toBeVisible();
  await page.locator('[data-sonner-toast]').getByRole('button', { name: 'Schließen' }).click();
  await page.getByLabel('Auth-Code vom bisherigen Anbieter').fill(code);
  await checkScreens(page, 'domain-transfer-order');
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zur Domain' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  // The simulated registry releases a transfer after a minute ÷ SIMULATED_SPEED (10): the page polls.
  await expect(page.getByText('Aktiv', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/Bezahlt bis \d{2}\.\d{2}\.\d{4}/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Auth-Code anzeigen' })).toBeEnabled();
});
