import { test, expect } from '@playwright/test';
import { demoAccount, login, unique } from './support.ts';

test('the status page shows the seeded services and derives the overall status', async ({ page }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { level: 1, name: 'Systemstatus' })).toBeVisible();
  for (const name of ['Server Hosting', 'Webserver', 'Cloud Storage', 'Datenbank', 'E-Mail Service', 'DNS']) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByText(/Letztes Update/)).toBeVisible();
});

test('the server renders /status with the current data: readable without JavaScript, hydrated without a mismatch', async ({ page, browser, request }) => {
  // Plain HTTP: the services and the overall status are in the HTML, with the data block the client
  // hydrates from (JSON, never an executable inline script, which the CSP forbids).
  const res = await request.get('/status');
  expect(res.status()).toBe(200);
  const html = await res.text();
  for (const name of ['Server Hosting', 'Webserver', 'DNS']) expect(html).toContain(name);
  expect(html).toContain('Letztes Update');
  expect(html).not.toContain('Systemstatus wird geladen');
  expect(html).toMatch(/<script type="application\/json" id="hp-initial-data">/);
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);

  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const noJs = await context.newPage();
    await noJs.goto('/status');
    await expect(noJs.getByText('Webserver', { exact: true }).first()).toBeVisible();
    await expect(noJs.getByText(/Letztes Update: \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} Uhr/)).toBeVisible();
  } finally {
    await context.close();
  }

  // With JavaScript: React takes over the server's HTML as it is (a mismatch would be logged and the
  // content drawn anew), and the page stays interactive.
  const errors: string[] = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/status');
  await expect(page.getByText('Webserver', { exact: true }).first()).toBeVisible();
  const refresh = page.getByRole('button', { name: 'Aktualisieren' });
  await expect(refresh).toBeEnabled();
  const reloaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/status' && r.status() === 200);
  await refresh.click();
  await reloaded;
  expect(errors).toEqual([]);
});

test('a customer is refused on /status-create, by the page and by the API', async ({ page, request }) => {
  const customer = demoAccount('customer');
  await login(page, customer.username, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/status-create');
  await expect(page.getByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const res = await request.post('/api/status/incidents', {
    headers: { authorization: `Bearer ${token}` },
    data: { title: 'Darf nicht sein', severity: 'minor', status: 'investigating' },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toBe('Dafür fehlt Ihnen die Berechtigung.');
});

test('without a token /status-create leads to the login', async ({ page }) => {
  await page.goto('/status-create');
  await expect(page).toHaveURL(/\/login$/);
});

test('an employee reports an incident, updates it, and the public page shows it', { tag: '@smoke' }, async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const employee = demoAccount('employee');
  const title = unique('Störung Netzwerk ');
  await login(page, employee.username, employee.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // Staff see the staff entries in the sidebar.
  await expect(page.getByRole('link', { name: 'Ticket-Übersicht' })).toBeVisible();
  await page.goto('/status-create');
  await expect(page.getByRole('heading', { level: 1, name: 'Status-Verwaltung' })).toBeVisible();
  await page.getByRole('tab', { name: 'Störungen' }).click();

  await page.getByRole('button', { name: 'Störung anlegen' }).click();
  await expect(page.getByText('Bitte geben Sie einen Titel ein.')).toBeVisible();

  await page.getByLabel('Titel').fill(title);
  await page.getByLabel('Schweregrad').selectOption('major');
  await page.getByLabel('Erste Meldung (optional)').fill('Wir untersuchen erhöhte Latenzen.');
  await page.getByRole('button', { name: 'Störung anlegen' }).click();
  await expect(page.getByText(title, { exact: true }).first()).toBeVisible();

  await page.getByLabel('Störung', { exact: true }).selectOption({ label: `${title} (Untersuchung)` });
  await page.getByLabel('Neuer Status').selectOption('identified');
  await page.getByLabel('Nachricht', { exact: true }).fill('Ursache gefunden: defekter Switch.');
  await page.getByRole('button', { name: 'Update veröffentlichen' }).click();
  await expect(page.getByText('Ursache gefunden: defekter Switch.').first()).toBeVisible();

  await page.goto('/status');
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByText('Ursache gefunden: defekter Switch.')).toBeVisible();
  await expect(page.getByText('Derzeit gibt es keine aktiven Störungen.')).toHaveCount(0);

  // Clean up through the UI: deleting asks for confirmation.
  await page.goto('/status-create?tab=stoerungen');
  await page.getByRole('button', { name: `Störung „${title}“ löschen` }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /Löschen/ }).click();
  await expect(page.getByRole('button', { name: `Störung „${title}“ löschen` })).toHaveCount(0);
  // The dialog's scroll lock injects a <style>; it must carry the CSP nonce instead of being blocked.
  expect(errors.filter((e) => /Content Security Policy/.test(e))).toEqual([]);
});
