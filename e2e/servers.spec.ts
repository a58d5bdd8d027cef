import { test, expect, type Page } from '@playwright/test';
import { firewallMessages, serverMessages } from '@hp/contract';
import { codeFromOutbox, demoAccount, distinctClient, login, unique } from './support.ts';

async function loginAs(page: Page, role: 'owner' | 'employee' | 'customer') {
  const account = demoAccount(role);
  await login(page, account.username, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('staff adds a node and IPs and creates a server; the customer stops and starts it; another customer gets a 404', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const nodeName = unique('pve');
  const ipBase = `198.51.${Math.floor(Math.random() * 200) + 20}`;

  // Staff: physical server.
  await loginAs(page, 'employee');
  await page.goto('/dashboard/physical-servers');
  await expect(page.getByRole('heading', { level: 1, name: 'Physische Server' })).toBeVisible();
  await page.getByRole('button', { name: 'Physischen Server hinzufügen' }).click();
  const nodeDialog = page.getByRole('dialog', { name: 'Physischen Server hinzufügen' });
  await nodeDialog.getByLabel('Node-Name (wie in Proxmox)').fill(nodeName);
  await nodeDialog.getByLabel('IP-Adresse oder Hostname').fill('10.20.30.40');
  await nodeDialog.getByLabel('CPU-Kerne').fill('16');
  await nodeDialog.getByLabel('RAM (GB)').fill('64');
  await nodeDialog.getByLabel('Speicher (GB)').fill('1000');
  await nodeDialog.getByRole('button', { name: 'Hinzufügen' }).click();
  await expect(page.getByRole('row').filter({ hasText: nodeName })).toBeVisible();

  // Staff: two IP addresses.
  await page.goto('/dashboard/ipaddressmanagement');
  for (const last of [10, 11]) {
    await page.getByRole('button', { name: 'IP-Adresse hinzufügen' }).click();
    const ipDialog = page.getByRole('dialog', { name: 'IP-Adresse hinzufügen' });
    await ipDialog.getByLabel('Adresse').fill(`${ipBase}.${last}`);
    await ipDialog.getByLabel('Gateway').fill(`${ipBase}.1`);
    await ipDialog.getByRole('button', { name: 'Hinzufügen' }).click();
    await expect(ipDialog).toHaveCount(0);
    // The demo pool fills the first pages; find the new address by searching.
    await page.getByLabel('IP-Adressen suchen').fill(`${ipBase}.${last}`);
    await expect(page.getByRole('cell', { name: `${ipBase}.${last}`, exact: true })).toBeVisible();
    await page.getByLabel('IP-Adressen suchen').fill('');
  }

  // Staff: server for the demo customer.
  const customer = demoAccount('customer');
  await page.goto('/dashboard/servers');
  await page.getByRole('button', { name: 'Server hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Server hinzufügen' });
  await dialog.getByLabel('vCPU').fill('2');
  await dialog.getByLabel('RAM (GB)').fill('4');
  await dialog.getByLabel('Speicher (GB)').fill('40');
  await dialog.getByRole('combobox', { name: 'Besitzer (Kundennummer)' }).fill(customer.username);
  await dialog.getByRole('option', { name: new RegExp(customer.username) }).first().click();
  await dialog.getByRole('combobox', { name: 'Cluster (physischer Server)' }).fill(nodeName);
  await dialog.getByRole('option', { name: new RegExp(nodeName) }).first().click();
  await dialog.getByRole('button', { name: 'Server erstellen' }).click();
  // Without an order staff must say why; the refusal is shown at the field.
  await expect(dialog.getByText('Bitte geben Sie an, warum der Server ohne Bestellung angelegt wird (mindestens 5 Zeichen).')).toBeVisible();
  await dialog.getByLabel('Grund (intern)').fill('Testsystem für die Abnahme');
  await dialog.getByRole('button', { name: 'Server erstellen' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: nodeName });
  await expect(row).toBeVisible();
  // The server takes the first free address of the pool (the demo pool or the ones added above).
  await expect(row).toContainText(/\d+\.\d+\.\d+\.\d+/);
  const cells = await row.getByRole('cell').allTextContents();
  const serverIp = cells.map((c) => c.trim()).find((c) => /^\d+\.\d+\.\d+\.\d+$/.test(c))!;
  const ipPattern = new RegExp(`(?<![\\d.])${serverIp.replace(/\./g, '\\.')}(?![\\d])`);
  await page.getByRole('button', { name: 'Abmelden' }).click();

  // Customer: the server appears and comes online.
  await loginAs(page, 'customer');
  const card = page.getByRole('listitem').filter({ has: page.getByText(serverIp, { exact: true }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('Online')).toBeVisible({ timeout: 60_000 });
  await card.getByRole('link', { name: /verwalten/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/linux\/[0-9a-f-]{36}$/);
  const serverUrl = new URL(page.url()).pathname;
  await expect(page.getByText('Online').first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'CPU-Auslastung' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Schnellaktionen' })).toBeVisible();

  // Stop asks first: cancelling leaves the server running, confirming powers it off.
  const header = page.getByRole('main').locator('header');
  await header.getByRole('button', { name: 'Stop', exact: true }).click();
  const stopDialog = page.getByRole('dialog', { name: 'Server stoppen?' });
  await expect(stopDialog).toContainText('Der Server wird sofort ausgeschaltet; nicht gespeicherte Daten gehen verloren.');
  await stopDialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(stopDialog).toHaveCount(0);
  await page.waitForTimeout(1500);
  await expect(header.getByText('Online')).toBeVisible();
  await header.getByRole('button', { name: 'Stop', exact: true }).click();
  await stopDialog.getByRole('button', { name: 'Stoppen' }).click();
  await expect(stopDialog).toHaveCount(0);
  await expect(page.getByText('Offline').first()).toBeVisible({ timeout: 30_000 });
  // The spec's throttle: wait out the 5 s before the next power action.
  await page.waitForTimeout(5200);
  await header.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByText('Online').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(5200);

  // Firewall: add the SSH preset.
  await page.getByRole('tab', { name: 'Netzwerk' }).click();
  await expect(page.getByText(ipPattern).first()).toBeVisible();
  await page.getByRole('button', { name: 'Regel hinzufügen' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Regel hinzufügen' });
  await ruleDialog.getByRole('button', { name: /^SSH/ }).click();
  await expect(page.getByText('Ihre Regel wurde erstellt.').first()).toBeVisible();
  await expect(ruleDialog).toHaveCount(0);
  await expect(page.getByRole('cell', { name: '22', exact: true })).toBeVisible();

  // The same rule again is refused with the API's German message; the list keeps one SSH rule.
  await page.getByRole('button', { name: 'Regel hinzufügen' }).click();
  await ruleDialog.getByRole('button', { name: /^SSH/ }).click();
  const duplicate = page.getByText(firewallMessages.duplicate).first();
  await expect(duplicate).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ruleDialog).toHaveCount(0);
  await expect(page.getByRole('cell', { name: '22', exact: true })).toHaveCount(1);

  // Toasts speak German and leave the header's buttons free: while the (two-line, 7 s) error toast is
  // showing, no toast overlaps Konsole/Neustart/Stop, and Neustart takes the click at once.
  await expect(page.getByRole('region', { name: 'Benachrichtigungen (Alt+T)' })).toBeAttached();
  await expect(page.getByRole('region', { name: /Notifications/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Schließen' }).first()).toBeAttached();
  await expect(page.getByRole('button', { name: /close/i })).toHaveCount(0);
  const toastBoxes = await page.locator('[data-sonner-toast]').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  expect(toastBoxes.length).toBeGreaterThan(0);
  for (const name of ['Konsole', 'Neustart', 'Stop']) {
    const button = (await header.getByRole('button', { name, exact: true }).boundingBox())!;
    for (const t of toastBoxes) {
      const overlaps = t.left < button.x + button.width && button.x < t.right && t.top < button.y + button.height && button.y < t.bottom;
      expect(overlaps, `toast ${JSON.stringify(t)} over ${name}`).toBe(false);
    }
  }
  await header.getByRole('button', { name: 'Neustart' }).click({ timeout: 2000 });
  await expect(duplicate).toBeVisible();
  await expect(page.getByText(serverMessages.restarting).first()).toBeVisible();
  await expect(header.getByText('Online')).toBeVisible({ timeout: 30_000 });

  // Switching the firewall off asks first; cancelling keeps it on, confirming turns it off.
  const firewallSwitch = page.getByRole('switch', { name: /Firewall/ });
  await expect(firewallSwitch).toBeChecked();
  await firewallSwitch.click();
  const offDialog = page.getByRole('dialog', { name: 'Firewall deaktivieren?' });
  await expect(offDialog).toBeVisible();
  await offDialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(offDialog).toHaveCount(0);
  await expect(firewallSwitch).toBeChecked();
  await expect(page.getByRole('cell', { name: '22', exact: true })).toBeVisible();
  await firewallSwitch.click();
  await offDialog.getByRole('button', { name: 'Deaktivieren' }).click();
  await expect(page.getByText('Firewall wurde deaktiviert.').first()).toBeVisible();
  await expect(firewallSwitch).not.toBeChecked();
  await expect(page.getByRole('cell', { name: '22', exact: true })).toHaveCount(0);
  // Switching on needs no confirmation and brings the kept rule back.
  await firewallSwitch.click();
  await expect(page.getByText('Firewall wurde aktiviert.').first()).toBeVisible();
  await expect(firewallSwitch).toBeChecked();
  await expect(page.getByRole('cell', { name: '22', exact: true })).toBeVisible();

  // Backup: create, wait for it, restore it.
  await page.getByRole('tab', { name: 'Backups' }).click();
  await expect(page.getByText('Max Backup: 1')).toBeVisible();
  await page.getByRole('button', { name: 'Backup erstellen' }).click();
  await expect(page.getByText('Backup abgeschlossen!').first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /wiederherstellen$/ }).first().click();
  await page.getByRole('alertdialog').or(page.getByRole('dialog')).getByRole('button', { name: 'Wiederherstellen' }).click();
  await expect(page.getByText('Das Backup wird wiederhergestellt...').first()).toBeVisible();
  await expect(page.getByRole('main').locator('header').getByText('Online')).toBeVisible({ timeout: 40_000 });

  // Software: install nginx.
  await page.getByRole('tab', { name: 'Installation' }).click();
  const nginx = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Nginx', exact: true }) });
  await nginx.getByRole('button', { name: 'Installieren' }).click();
  await expect(page.getByText('Das Programm Nginx wurde installiert.').first()).toBeVisible({ timeout: 40_000 });
  await expect(nginx.getByText('Installiert', { exact: true })).toBeVisible();

  // Console: the pop-up shows the login banner and the prompt, and runs a command.
  await expect(page.getByRole('main').locator('header').getByText('Online')).toBeVisible({ timeout: 30_000 });
  const popupPromise = page.waitForEvent('popup');
  await header.getByRole('button', { name: 'Konsole' }).click();
  const popup = await popupPromise;
  await expect(popup.getByText('Verbunden')).toBeVisible({ timeout: 15_000 });
  await expect(popup.locator('.xterm-rows')).toContainText('root@', { timeout: 15_000 });
  await popup.locator('.xterm-helper-textarea').focus();
  await popup.keyboard.type('uname -a\n');
  await expect(popup.locator('.xterm-rows')).toContainText('Linux', { timeout: 10_000 });
  await popup.close();

  // Another customer: the same URL is a 404, and the API refuses too.
  const context = await browser.newContext();
  const other = await context.newPage();
  const name = unique('fremd');
  const reg = await request.post('/api/auth/register', { headers: distinctClient(), data: { username: name, email: `${name}@example.com`, password: 'Sicher!Passwort1', confirmPassword: 'Sicher!Passwort1' } });
  expect(reg.status()).toBe(201);
  const { userId } = await reg.json();
  const code = await codeFromOutbox(`${name}@example.com`, Date.now() - 10_000);
  expect((await request.post('/api/auth/verify-email', { data: { userId, code } })).status()).toBe(200);
  await login(other, name, 'Sicher!Passwort1');
  await expect(other).toHaveURL(/\/dashboard$/);
  await expect(other.getByText('Keine Server gefunden')).toBeVisible();
  await other.goto(serverUrl);
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('Oops! Diese Seite wurde nicht gefunden');
  const token = await other.evaluate(() => localStorage.getItem('jwt'));
  const serverId = serverUrl.split('/').pop();
  const power = await request.post(`/api/servers/${serverId}/power`, { headers: { authorization: `Bearer ${token}` }, data: { action: 'stop' } });
  expect(power.status()).toBe(404);
  await context.close();
});
