import { test, expect } from '@playwright/test';
import { DEFAULT_PHP_VERSION, formatEuro, hostingMessages, hostingPriceCents, shopMessages } from '@hp/contract';
import { checkScreens, signedIn } from './screens.ts';
import { createVerifiedAccount, distinctClient, login, PASSWORD, payWithCard, unique } from './support.ts';

const TERMS = 'Ich akzeptiere die AGB und Datenschutzbestimmungen';

test('a new customer orders Professional with a subdomain, pays, and runs the package: database, PHP 8.2, WordPress, backups; another customer gets a 404', async ({ page, request, browser }) => {
  test.setTimeout(300_000);
  const { username } = await createVerifiedAccount(request, 'web');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Produkte' })).toBeVisible();
  await expect(page.getByText('Keine Hosting-Pakete')).toBeVisible();

  // 1. The shop: Professional is preselected, the price follows the term, a free subdomain is chosen.
  await page.getByRole('link', { name: 'Webhosting bestellen' }).click();
  await expect(page).toHaveURL(/\/shop\/webhosting$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhosting bestellen' })).toBeVisible();
  const price = page.getByRole('status', { name: 'Gesamtpreis' });
  await expect(price).toHaveText(formatEuro(hostingPriceCents({ plan: 'professional', months: 1 })));
  await page.getByRole('button', { name: '6 Monate' }).click();
  await expect(price).toHaveText(formatEuro(hostingPriceCents({ plan: 'professional', months: 6 })));
  await expect(page.getByText('inkl. 10 % Laufzeitrabatt')).toBeVisible();
  const sub = unique('journey');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill('Ungültig!');
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page.getByText(/Subdomain darf nur Kleinbuchstaben/).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(sub);
  await checkScreens(page, 'hosting-shop');
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zum Hosting-Paket' }).click();

  // 2. The package becomes active (provisioning on the simulated panel).
  await expect(page).toHaveURL(/\/dashboard\/webhosting\/[0-9a-f-]{36}$/);
  const packageUrl = page.url();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(sub);
  await expect(page.getByText('Aktiv', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(`PHP ${DEFAULT_PHP_VERSION}`).or(page.getByText(DEFAULT_PHP_VERSION, { exact: true })).first()).toBeVisible();
  await checkScreens(page, 'hosting-overview');

  // "Neustart" is honest: nothing to restart, the panel reloads by itself.
  await page.getByRole('button', { name: 'Neustart', exact: true }).click();
  const restart = page.getByRole('dialog', { name: 'Apache neustarten' });
  await expect(restart).toContainText('Ein Neustart ist nicht nötig');
  await expect(restart.getByRole('button', { name: /Neustart durchführen/ })).toHaveCount(0);
  await restart.getByRole('button', { name: 'Schließen' }).first().click();

  // 3a. A database.
  await page.getByRole('tab', { name: 'Datenbanken' }).click();
  await page.getByRole('button', { name: 'Datenbank erstellen' }).click();
  const dbDialog = page.getByRole('dialog', { name: 'Datenbank erstellen' });
  await dbDialog.getByLabel(/^Name \(ohne Präfix/).fill('shop');
  await dbDialog.getByLabel('Passwort des Datenbankbenutzers').fill('Geheim!Passw0rt');
  await dbDialog.getByLabel('Passwort bestätigen').fill('Geheim!Passw0rt');
  await dbDialog.getByRole('button', { name: 'Datenbank erstellen' }).click();
  await expect(dbDialog).toHaveCount(0);
  await expect(page.getByRole('cell', { name: /_shop$/ }).first()).toBeVisible();
  await checkScreens(page, 'hosting-databases');

  // ── 3a'. Database users, a database for an existing user, a domain's "Verwalten", the Apache host selector ──
  await page.getByRole('button', { name: 'Benutzer erstellen' }).click();
  const userDialog = page.getByRole('dialog', { name: 'Benutzer erstellen' });
  await userDialog.getByLabel(/^Benutzername/).fill('x');
  await userDialog.getByLabel('Passwort', { exact: true }).fill('Geheim!Passw0rt');
  await userDialog.getByLabel('Passwort bestätigen').fill('anders');
  await userDialog.getByRole('button', { name: 'Benutzer erstellen' }).click();
  await expect(userDialog.getByText(hostingMessages.nameInvalid)).toBeVisible();
  await expect(userDialog.getByText('Die Passwörter stimmen nicht überein.')).toBeVisible();
  await userDialog.getByLabel(/^Benutzername/).fill('leser');
  await userDialog.getByLabel('Passwort bestätigen').fill('Geheim!Passw0rt');
  await checkScreens(page, 'hosting-database-user-dialog');
  await userDialog.getByRole('button', { name: 'Benutzer erstellen' }).click();
  await expect(userDialog).toHaveCount(0);
  const dbUsers = page.getByRole('table', { name: 'Datenbankbenutzer' });
  await expect(dbUsers.getByText(/_leser$/)).toBeVisible();
  const reader = (await dbUsers.getByText(/_leser$/).textContent())!.trim();

  await page.getByRole('button', { name: 'Datenbank erstellen' }).click();
  const forUser = page.getByRole('dialog', { name: 'Datenbank erstellen' });
  await forUser.getByLabel(/^Name \(ohne Präfix/).fill('daten');
  await forUser.getByLabel('Datenbankbenutzer', { exact: true }).selectOption({ label: reader });
  await expect(forUser.getByLabel('Passwort des Datenbankbenutzers')).toHaveCount(0);
  await forUser.getByRole('button', { name: 'Datenbank erstellen' }).click();
  await expect(forUser).toHaveCount(0);
  const dbTable = page.getByRole('table', { name: 'MySQL-Datenbanken' });
  const dataRow = dbTable.getByRole('row', { name: /_daten/ });
  await expect(dataRow).toContainText(reader);
  // The simulated panel counts tables: a new database has none.
  await expect(dataRow.getByRole('cell').nth(2)).toHaveText('0');

  // A user that still owns a database is not deleted; the refusal names the database.
  await dbUsers.getByRole('button', { name: /Datenbankbenutzer .*_leser löschen/ }).click();
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText(/_leser gehört noch zu der Datenbank .*_daten/).first()).toBeVisible();
  await page.keyboard.press('Escape');

  await dataRow.getByRole('button', { name: /verwalten$/ }).click();
  const manageDb = page.getByRole('dialog', { name: /^Datenbank .*_daten$/ });
  await expect(manageDb).toContainText('localhost');
  await expect(manageDb.getByRole('link', { name: /In phpMyAdmin öffnen/ })).toBeVisible();
  await checkScreens(page, 'hosting-database-manage');
  await manageDb.getByRole('button', { name: 'Schließen' }).click();

  await page.getByRole('tab', { name: 'Website' }).click();
  const addon = `${unique('zusatz')}.de`;
  await page.getByRole('button', { name: 'Domain hinzufügen' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Domain hinzufügen' });
  await addDialog.getByLabel('Domain').fill(addon);
  await addDialog.getByRole('button', { name: 'Domain hinzufügen' }).click();
  await expect(addDialog).toHaveCount(0);
  const domainTable = page.getByRole('table', { name: 'Domains des Pakets' });
  await domainTable.getByRole('button', { name: `Domain ${addon} verwalten` }).click();
  const manageDomain = page.getByRole('dialog', { name: `Domain ${addon}` });
  await expect(manageDomain).toContainText('A- und AAAA-Einträge');
  await expect(manageDomain).toContainText(`/web/${addon}`);
  await expect(manageDomain.getByRole('button', { name: 'SSL aktivieren' })).toBeVisible();
  await expect(manageDomain.getByRole('button', { name: 'Domain entfernen' })).toBeVisible();
  await checkScreens(page, 'hosting-domain-manage');
  await manageDomain.getByRole('button', { name: 'Schließen' }).click();
  // The free subdomain's DNS is ours: nothing to set up, and the primary domain cannot be removed.
  await domainTable.getByRole('button', { name: new RegExp(`^Domain ${sub}\\..* verwalten$`) }).click();
  const managePrimary = page.getByRole('dialog', { name: new RegExp(`^Domain ${sub}\\.`) });
  await expect(managePrimary).toContainText('Sie müssen nichts einrichten');
  await expect(managePrimary.getByRole('button', { name: 'Domain entfernen' })).toHaveCount(0);
  await managePrimary.getByRole('button', { name: 'Schließen' }).click();

  const apache = page.getByRole('region', { name: 'Apache und .htaccess' });
  await expect(apache).toContainText(/\/web\/\.htaccess/);
  await apache.getByLabel('Virtueller Host').selectOption({ label: `${addon} (Zusatzdomain)` });
  await expect(apache).toContainText(`/web/${addon}/.htaccess`);
  await expect(apache.getByRole('textbox')).toHaveCount(0);
  await checkScreens(page, 'hosting-apache');
  await page.getByRole('tab', { name: 'Datenbanken' }).click();
  // ── end 3a' ──

  // 3b. PHP 8.2 through the quick action.
  await page.getByRole('tab', { name: 'Übersicht' }).click();
  await page.getByRole('button', { name: 'PHP-Version ändern' }).click();
  const phpDialog = page.getByRole('dialog', { name: 'PHP-Version ändern' });
  await phpDialog.getByRole('radio', { name: /8\.2/ }).check();
  await phpDialog.getByRole('button', { name: 'Version übernehmen' }).click();
  await expect(phpDialog).toHaveCount(0);
  await page.getByRole('tab', { name: 'Einstellungen' }).click();
  await expect(page.getByLabel('PHP-Version')).toHaveValue('8.2');

  // 3c. WordPress with one click; its version appears when the install is done.
  await page.getByRole('tab', { name: 'Übersicht' }).click();
  await page.getByRole('button', { name: 'Website-Typ ändern' }).click();
  const typeDialog = page.getByRole('dialog', { name: 'Website-Typ ändern' });
  await typeDialog.getByRole('radio', { name: 'WordPress' }).check();
  await expect(typeDialog).toContainText('überschrieben');
  await typeDialog.getByRole('button', { name: 'WordPress installieren' }).click();
  await expect(typeDialog).toHaveCount(0);
  await page.getByRole('tab', { name: 'Website' }).click();
  await expect(page.getByText('6.6.2').first()).toBeVisible({ timeout: 60_000 });
  await checkScreens(page, 'hosting-website');

  // 3d. WordPress tools: the security check reports findings; a plugin is deactivated; another theme becomes active.
  const app = page.getByRole('region', { name: 'WordPress' });
  const securityCheck = app.getByRole('button', { name: 'Sicherheits-Check' });
  await expect(securityCheck).toBeEnabled({ timeout: 60_000 });
  await securityCheck.click();
  const findings = app.getByRole('list', { name: 'Befunde des Sicherheits-Checks' });
  await expect(findings).toContainText('„Contact Form 7“ 5.9.6 hat eine bekannte Sicherheitslücke', { timeout: 30_000 });
  await expect(findings).toContainText('Kritisch');
  await expect(app.getByText(/Geprüft am \d{2}\.\d{2}\.\d{4}/)).toBeVisible();
  await app.getByRole('button', { name: 'Plugin Akismet Anti-Spam deaktivieren' }).click();
  await expect(app.getByRole('button', { name: 'Plugin Akismet Anti-Spam aktivieren' })).toBeVisible();
  await expect(app.getByRole('row', { name: /Akismet Anti-Spam/ })).toContainText('Deaktiviert');
  await expect(app.getByRole('link', { name: /Theme Twenty Twenty-Three anpassen/ })).toHaveAttribute('href', /\/wp-admin\/customize\.php\?theme=twentytwentythree$/);
  await app.getByRole('button', { name: 'Theme Twenty Twenty-Three aktivieren' }).click();
  await expect(app.getByRole('row', { name: /Twenty Twenty-Three/ })).toContainText('Aktives Theme');
  await expect(app.getByRole('button', { name: 'Theme Twenty Twenty-Four aktivieren' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Theme Twenty Twenty-Three aktivieren' })).toHaveCount(0);
  // The theme row's buttons sit where the toasts appear; a pointer resting on them keeps them open.
  await page.mouse.move(0, 0);
  await checkScreens(page, 'hosting-website-tools');

  // 4. Backup schedule (copies, honestly) and a restore with progress.
  await page.getByRole('tab', { name: 'Backups' }).click();
  await page.getByLabel('Automatische Backups').selectOption('daily');
  await page.getByLabel('Aufbewahrungszeitraum').selectOption('14');
  await expect(page.getByText(/15 (Kopien|Sicherungen)/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
  await expect(page.getByText(/letzten 15 Sicherungen/).first()).toBeVisible();
  const restoreButton = page.getByRole('button', { name: /wiederherstellen$/ }).first();
  await expect(restoreButton).toBeVisible({ timeout: 60_000 });
  await restoreButton.click();
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button', { name: 'Wiederherstellen' }).click();
  await expect(page.getByText(/Wiederherstellung/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /wiederherstellen$/ }).first()).toBeEnabled({ timeout: 60_000 });
  await checkScreens(page, 'hosting-backups');

  await page.getByRole('tab', { name: 'Einstellungen' }).click();
  await checkScreens(page, 'hosting-settings');

  // The spec's /dashboard/WebDetails leads to the customer's package.
  await page.goto('/dashboard/WebDetails');
  await expect(page).toHaveURL(packageUrl);

  // The product list shows the package.
  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Hosting-Pakete' }).getByRole('listitem')).toContainText(sub);
  await checkScreens(page, 'my-products');

  // The order shows the plan and domain instead of server parts.
  await page.getByRole('link', { name: 'Bestellen', exact: true }).click();
  await page.getByRole('list', { name: 'Bestellungen' }).getByRole('listitem').first().getByRole('link', { name: /Details/ }).click();
  await expect(page.getByRole('heading', { name: 'Paket-Details' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Domain/ }).first()).toContainText(sub);
  await checkScreens(page, 'hosting-order');

  // 5. Another customer: the package does not exist for them.
  const other = await createVerifiedAccount(request, 'webother');
  const context = await browser.newContext();
  const otherPage = await context.newPage();
  await login(otherPage, other.username, PASSWORD);
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  // Without a package of their own, /dashboard/WebDetails leads to the shop.
  await otherPage.goto('/dashboard/WebDetails');
  await expect(otherPage).toHaveURL(/\/shop\/webhosting$/);
  await otherPage.goto(packageUrl);
  await expect(otherPage).toHaveURL(/\/404$/);
  const token = (await (await request.post('/api/auth/login', { headers: distinctClient(), data: { username: other.username, password: PASSWORD } })).json()).token as string;
  const id = packageUrl.split('/').at(-1)!;
  expect((await request.get(`/api/hosting/${id}`, { headers: { authorization: `Bearer ${token}` } })).status()).toBe(404);

  // Shared like a server: the owner adds the other account on the settings tab; it can then open the package.
  await page.goto(packageUrl);
  await page.getByRole('tab', { name: 'Einstellungen' }).click();
  await page.getByRole('button', { name: 'Benutzer hinzufügen' }).click();
  const shareDialog = page.getByRole('dialog', { name: 'Benutzer hinzufügen' });
  await shareDialog.getByLabel('Benutzername').fill(other.username);
  await shareDialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(page.getByRole('region', { name: 'Zugriffsverwaltung' })).toContainText(other.username);
  await otherPage.goto(packageUrl);
  await expect(otherPage.getByRole('heading', { level: 1 })).toContainText(sub);
  await context.close();
});

test('staff enter a hosting server with its slots, get German errors for bad input, and remove an empty one', async ({ browser }) => {
  const { context, page } = await signedIn(browser, 'employee');
  await page.goto('/dashboard/servers');
  await page.getByRole('link', { name: 'Hosting-Server' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hosting-Server' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'web-fra-01', exact: true })).toBeVisible();

  const name = unique('web-e2e-');
  await page.getByRole('button', { name: 'Hosting-Server hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Hosting-Server hinzufügen' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Hostname').fill('kein host');
  await dialog.getByLabel('Server-ID im Panel').fill('x1');
  await dialog.getByLabel('Plätze (Pakete)').fill('0');
  await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(dialog.getByText('Bitte geben Sie einen gültigen Hostnamen an')).toBeVisible();
  await expect(dialog.getByText('Die Server-ID im Panel ist eine Zahl')).toBeVisible();
  await expect(dialog.getByText('Mindestens 1 Paket.')).toBeVisible();
  await dialog.getByLabel('Hostname').fill(`${name}.example.net`);
  await dialog.getByLabel('Server-ID im Panel').fill(String(1000 + Math.floor(Math.random() * 8999)));
  await dialog.getByLabel('Plätze (Pakete)').fill('50');
  await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('0 / 0 / 50');
  await checkScreens(page, 'staff-hosting-servers');

  await row.getByRole('button', { name: `Hosting-Server ${name} entfernen` }).click();
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button', { name: 'Entfernen' }).click();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  await context.close();
});
