import { test, expect, type Locator, type Page } from '@playwright/test';
import { shopMessages } from '@hp/contract';
import { createVerifiedAccount, demoAccount, login, PASSWORD, payWithCard } from './support.ts';
import { recordScreenshot } from './screens.ts';

// A phone's width: every page of the portal and the staff area has to fit it. (No mobile emulation: it
// would zoom out to the page's width, and a too-wide page would then pass as fitting.)
const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/** No sideways scrolling; on failure the message names the elements that stick out. */
async function expectNoSideScroll(page: Page, name: string) {
  const result = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide = Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" → ${Math.round(el.getBoundingClientRect().right)}px`);
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  });
  expect(result.width).toBe(PHONE.width);
  expect(result.scrollWidth, `${name}: page is ${result.scrollWidth}px wide at ${result.width}px (${result.wide.join('; ')})`).toBeLessThanOrEqual(result.width);
}

/** The element lies within the window's width, so it can be seen and reached without scrolling sideways. */
async function expectWithinWidth(locator: Locator, name: string) {
  const box = (await locator.boundingBox())!;
  expect(box, name).not.toBeNull();
  expect(box.x, `${name} starts left of the window`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name} ends right of the window`).toBeLessThanOrEqual(PHONE.width);
}

test('every customer page fits a 390 px phone: dashboard, server tabs, orders, invoices, profile, shop, upgrade, support, changelog', async ({ page, request }) => {
  test.setTimeout(300_000);
  const { username } = await createVerifiedAccount(request, 'handy');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectNoSideScroll(page, 'Meine Server (leer)');

  // Shop configurator on the phone: a Windows server, so the settings tab can be checked for Windows too.
  await page.goto('/shop/kvm-server');
  await expect(page.getByRole('heading', { level: 1, name: 'KVM Server konfigurieren' })).toBeVisible();
  await expectNoSideScroll(page, 'Konfigurator');
  await page.getByRole('radio', { name: /Windows/ }).check();
  await page.getByLabel('Ich akzeptiere die AGB und Datenschutzbestimmungen').check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await expectNoSideScroll(page, 'Zahlung erfolgreich');

  // Dashboard: the server card.
  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Server' }).getByRole('listitem');
  await expect(card.getByText('Online')).toBeVisible({ timeout: 90_000 });
  await expectNoSideScroll(page, 'Meine Server');

  // Support: the list, the new-ticket dialog and the chat.
  await page.goto('/dashboard/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expectNoSideScroll(page, 'Support (leer)');
  await page.getByRole('button', { name: 'Neues Ticket' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neues Ticket' });
  await dialog.getByLabel('Titel').fill('Ein recht langer Titel für ein Ticket auf dem Telefon');
  await dialog.getByLabel('Beschreibung').fill('Beschreibung');
  await expectNoSideScroll(page, 'Neues Ticket');
  await dialog.getByRole('button', { name: 'Ticket erstellen' }).click();
  await expect(page).toHaveURL(/\/support\/[0-9a-f-]{36}$/);
  await page.getByLabel('Nachricht', { exact: true }).fill('Eine Nachricht');
  await page.getByLabel('Nachricht', { exact: true }).press('Enter');
  await expect(page.getByRole('list', { name: 'Nachrichten' }).getByText('Eine Nachricht')).toBeVisible();
  await expectNoSideScroll(page, 'Ticket-Chat');
  await expectWithinWidth(page.getByRole('button', { name: 'Ticket schließen' }), 'Ticket schließen');
  await page.goto('/dashboard/support');
  await expect(page.getByRole('link', { name: /^Details zu Ticket/ })).toBeVisible();
  await expectNoSideScroll(page, 'Support');

  // The opened sidebar lies over the page instead of squeezing it; choosing an entry closes it.
  await page.getByRole('button', { name: 'Seitenleiste ausklappen' }).click();
  await expect(page.getByRole('button', { name: 'Seitenleiste einklappen' })).toBeVisible();
  await expectNoSideScroll(page, 'Seitenleiste offen');
  await page.getByRole('link', { name: 'Meine Produkte' }).click();
  await expect(page.getByRole('button', { name: 'Seitenleiste ausklappen' })).toBeVisible();

  // Server detail, every tab.
  await card.getByRole('link', { name: /verwalten/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/windows\/[0-9a-f-]{36}$/);
  const serverId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Schnellaktionen' })).toBeVisible();
  // Uptime is "Betriebszeit"; "Laufzeit" is left to the contract's end date.
  await expect(page.getByText('Betriebszeit', { exact: true })).toBeVisible();
  await expect(page.getByText('Laufzeit bis', { exact: true })).toBeVisible();
  await expect(page.getByText('Laufzeit', { exact: true })).toHaveCount(0);
  await expectNoSideScroll(page, 'Server: Übersicht');
  for (const name of ['Konsole', 'Neustart', 'Stop']) await expectWithinWidth(page.getByRole('main').locator('header').getByRole('button', { name, exact: true }), `Kopf-Schaltfläche ${name}`);

  await page.getByRole('tab', { name: 'Performance' }).click();
  await expect(page.getByRole('heading', { name: 'CPU-Auslastung (%)' })).toBeVisible();
  await expectNoSideScroll(page, 'Server: Performance');

  await page.getByRole('tab', { name: 'Netzwerk' }).click();
  await page.getByRole('button', { name: 'Regel hinzufügen' }).click();
  await page.getByRole('dialog', { name: 'Regel hinzufügen' }).getByRole('button', { name: /^Webserver/ }).click();
  const rules = page.getByRole('table', { name: 'Firewall-Regeln' });
  await expect(rules.getByText('Webserver', { exact: true })).toBeVisible();
  await expectNoSideScroll(page, 'Server: Netzwerk');
  // Description and delete were cut off before; now both are in view without scrolling sideways.
  await expectWithinWidth(rules.getByText('Webserver', { exact: true }), 'Beschreibung der Regel');
  await expectWithinWidth(rules.getByRole('button', { name: /^Regel 1 \(Webserver\) löschen$/ }), 'Löschen der Regel');

  await page.getByRole('tab', { name: 'Backups' }).click();
  await page.getByRole('button', { name: 'Backup erstellen' }).click();
  await expect(page.getByText('Backup abgeschlossen!').first()).toBeVisible({ timeout: 40_000 });
  const backups = page.getByRole('table', { name: 'Backups des Servers' });
  await expect(backups.getByRole('button', { name: /wiederherstellen$/ })).toBeVisible();
  await expectNoSideScroll(page, 'Server: Backups');
  await expectWithinWidth(backups.getByRole('button', { name: /wiederherstellen$/ }), 'Backup wiederherstellen');
  await expectWithinWidth(backups.getByRole('button', { name: /löschen$/ }), 'Backup löschen');
  // One backup is the limit: the reason stands next to the button, not only in a toast after a click.
  await expect(page.getByText('Die maximale Anzahl von Backups ist erreicht.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Backup erstellen' })).toHaveAccessibleDescription('Die maximale Anzahl von Backups ist erreicht.');
  await recordScreenshot(page, test.info().outputPath('server-backups-limit-390.png'));
  await page.setViewportSize({ width: 1280, height: 900 });
  await recordScreenshot(page, test.info().outputPath('server-backups-limit-1280.png'));
  await page.setViewportSize(PHONE);

  await page.getByRole('tab', { name: 'Installation' }).click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await expectNoSideScroll(page, 'Server: Installation');

  // Windows: the Administrator password, and no SSH keys.
  await page.getByRole('tab', { name: 'Einstellungen' }).click();
  await expect(page.getByRole('heading', { name: 'Administrator-Passwort ändern' })).toBeVisible();
  await expect(page.getByLabel('Neues Administrator-Passwort')).toBeVisible();
  await expect(page.getByText(/SSH-Schlüssel/)).toHaveCount(0);
  await expect(page.getByText(/Root-Passwort/)).toHaveCount(0);
  await expectNoSideScroll(page, 'Server: Einstellungen');

  // Orders: the badge and "Nächste Abrechnung" stay inside the card.
  await page.goto('/dashboard/order');
  const order = page.getByRole('list', { name: 'Bestellungen' }).getByRole('listitem').first();
  await expect(order).toBeVisible();
  await expectNoSideScroll(page, 'Bestellungen');
  await expectWithinWidth(order.getByText('Nächste Abrechnung'), 'Nächste Abrechnung');
  await expectWithinWidth(order.getByText(/^(Abgeschlossen|In Bearbeitung)$/), 'Status der Bestellung');
  await order.getByRole('link', { name: /Details/ }).click();
  await expect(page.getByRole('heading', { name: 'Server Details' })).toBeVisible();
  await expectNoSideScroll(page, 'Bestelldetails');

  // Invoices (issued by a background job).
  await page.goto('/dashboard/invoices');
  const pdf = page.getByRole('button', { name: /^PDF/ }).first();
  await expect(async () => {
    await page.reload();
    await expect(pdf).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expectNoSideScroll(page, 'Rechnungen');
  await expectWithinWidth(pdf, 'PDF-Download');
  await expectWithinWidth(page.getByRole('button', { name: /^E-Rechnung/ }).first(), 'XML-Download');

  await page.goto('/dashboard/profil');
  await expect(page.getByRole('heading', { level: 1, name: 'Mein Profil' })).toBeVisible();
  await expectNoSideScroll(page, 'Profil');

  await page.goto(`/upgrade/kvm-server/${serverId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Server verlängern / upgraden' })).toBeVisible();
  await expectNoSideScroll(page, 'Upgrade');

  // The server list's Stop asks first, too.
  await page.goto('/dashboard');
  await card.getByRole('button', { name: 'Stop', exact: true }).click();
  const stopDialog = page.getByRole('dialog', { name: 'Server stoppen?' });
  await expect(stopDialog).toContainText('Der Server wird sofort ausgeschaltet; nicht gespeicherte Daten gehen verloren.');
  await stopDialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(stopDialog).toHaveCount(0);
  await expect(card.getByText('Online')).toBeVisible();

  // The sidebar's Changelog stays inside the portal shell.
  await page.getByRole('link', { name: 'Changelog' }).click();
  await expect(page).toHaveURL(/\/changelog$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Changelog' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Portal-Navigation' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await expectNoSideScroll(page, 'Changelog');
});

test('every staff page fits a 390 px phone, with the row actions in reach', async ({ page }) => {
  const staff = demoAccount('employee');
  await login(page, staff.username, staff.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard/servers');
  await expect(page.getByRole('heading', { level: 1, name: 'Server-Management' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Virtuelle Server' }).or(page.getByText('Es sind noch keine virtuellen Server angelegt.'))).toBeVisible();
  await expectNoSideScroll(page, 'Server-Management');

  await page.goto('/dashboard/physical-servers');
  const deleteNode = page.getByRole('button', { name: /^Physischen Server .+ löschen$/ }).first();
  await expect(deleteNode).toBeVisible();
  await expectNoSideScroll(page, 'Physische Server');
  await expectWithinWidth(deleteNode, 'Physischen Server löschen');

  await page.goto('/dashboard/ipaddressmanagement');
  const deleteIp = page.getByRole('button', { name: /^IP-Adresse .+ löschen$/ }).first();
  await expect(deleteIp).toBeVisible();
  await expectNoSideScroll(page, 'IP-Adressen');
  await expectWithinWidth(deleteIp, 'IP-Adresse löschen');

  await page.goto('/status-create');
  await expect(page.getByRole('heading', { level: 1, name: 'Status-Verwaltung' })).toBeVisible();
  await expectNoSideScroll(page, 'Status-Verwaltung');

  // Support desk: the overview (the demo seed has an open, unassigned ticket), my tickets, the ticket view.
  await page.goto('/dashboard/my-tickets');
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Tickets' })).toBeVisible();
  await expectNoSideScroll(page, 'Meine Tickets');
  await page.goto('/dashboard/support-overview');
  const details = page.getByRole('link', { name: /^Details zu Ticket/ }).first();
  await expect(details).toBeVisible();
  await expectNoSideScroll(page, 'Ticket-Übersicht');
  await expectWithinWidth(details, 'Ticket-Details');
  await details.click();
  await expect(page).toHaveURL(/\/supporter\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('complementary', { name: 'Kunde' })).toBeVisible();
  await expectNoSideScroll(page, 'Supporter-Ansicht');
  await expectWithinWidth(page.getByRole('button', { name: 'Ticket schließen' }), 'Ticket schließen (Mitarbeiter)');
});

test('visitors read the changelog inside the public site', async ({ page }) => {
  await page.goto('/changelog');
  await expect(page.getByRole('heading', { level: 1, name: 'Changelog' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Portal-Navigation' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toBeVisible();
});
