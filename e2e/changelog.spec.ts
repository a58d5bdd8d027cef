import { test, expect } from '@playwright/test';
import { changelogMessages as m } from '@hp/contract';
import { apiAuth, unique } from './support.ts';
import { checkScreens, PHONE, signedIn } from './screens.ts';

// One worker, in order: the server-rendering test adds an entry dated between the journey's new entry and
// the older ones, which made the journey's "Älteres/Neueres Update" round trip land elsewhere when both ran
// at once (seen twice in session 8's runs).
test.describe.configure({ mode: 'default' });

test('staff publish a changelog entry; visitors read it in the list and the detail with working navigation', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const title = `Neue Firewall-Vorlagen ${unique('c')}`;
  const staff = await signedIn(browser, 'employee');
  try {
    // The sidebar leads to the changelog; "Neuer Eintrag" to the form.
    await staff.page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Changelog' }).click();
    await expect(staff.page.getByRole('heading', { level: 1, name: 'Changelog' })).toBeVisible();
    await staff.page.getByRole('link', { name: 'Neuer Eintrag' }).click();
    await expect(staff.page).toHaveURL(/\/changelog-create$/);
    await expect(staff.page.getByRole('heading', { level: 1, name: 'Changelog-Verwaltung' })).toBeVisible();
    // Required fields answer in German; a change can be removed only while more than one remains.
    await staff.page.getByRole('button', { name: 'Speichern' }).click();
    await expect(staff.page.getByText(m.titleRequired)).toBeVisible();
    await expect(staff.page.getByText(m.changeTitleRequired)).toBeVisible();
    await expect(staff.page.getByRole('button', { name: 'Änderung 1 entfernen' })).toBeDisabled();
    await staff.page.getByLabel('Titel', { exact: true }).fill(title);
    await staff.page.getByLabel('Beschreibung', { exact: true }).fill('Firewall-Regeln aus Vorlagen, mit <b>einem</b> Klick.');
    await staff.page.getByLabel('Version (optional)').fill('v9.1.0');
    await staff.page.getByLabel('Veröffentlichungsdatum').fill('2030-01-15');
    await staff.page.getByLabel('Als Highlight hervorheben').check();
    const changes = [['Vorlage Webserver', 'Öffnet 80 und 443.'], ['Vorlage Mailserver', 'Öffnet 25, 465, 587 und 993.'], ['Vorlage SSH', 'Nur Port 22.'], ['Schnellere Regeln', 'Regeln greifen sofort.']];
    for (const [i, [changeTitle, description]] of changes.entries()) {
      if (i > 0) await staff.page.getByRole('button', { name: 'Weitere Änderung hinzufügen' }).click();
      const group = staff.page.getByRole('group', { name: `Änderung ${i + 1}` });
      await group.getByLabel('Titel der Änderung').fill(changeTitle!);
      await group.getByLabel('Beschreibung der Änderung').fill(description!);
    }
    await staff.page.getByRole('group', { name: 'Änderung 4' }).getByLabel('Typ der Änderung').selectOption({ label: 'Verbesserung' });
    await checkScreens(staff.page, 'changelog-form');
    await staff.page.getByRole('button', { name: 'Speichern' }).click();
    await expect(staff.page.getByText(m.created)).toBeVisible();
    await expect(staff.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  } finally {
    await staff.context.close();
  }

  // A visitor without an account: the list shows it first with three changes and "Alle 4 Änderungen anzeigen".
  await page.setViewportSize(PHONE);
  await page.goto('/Changelog');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toBeVisible();
  await expect(page.getByRole('list', { name: 'Changelog-Einträge' }).getByRole('listitem').first()).toContainText(title);
  await expect(card.getByText('Firewall-Regeln aus Vorlagen, mit <b>einem</b> Klick.')).toBeVisible();
  await expect(card.getByText('Schnellere Regeln')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Neuer Eintrag' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Alle 4 Änderungen anzeigen' }).click();
  const modal = page.getByRole('dialog', { name: title });
  await expect(modal.getByText('Schnellere Regeln')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Bearbeiten' })).toHaveCount(0);
  await modal.getByRole('button', { name: 'Schließen' }).first().click();
  await checkScreens(page, 'changelog-list');

  // The detail: badges, changes, and the neighbours in release order.
  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('v9.1.0')).toBeVisible();
  await expect(page.getByText('Highlight')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Änderungen im Detail' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Neueres Update' })).toHaveCount(0);
  await checkScreens(page, 'changelog-detail');
  const detailUrl = page.url();
  await page.getByRole('link', { name: 'Älteres Update' }).click();
  await expect(page).not.toHaveURL(detailUrl);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(title);
  await page.getByRole('link', { name: 'Neueres Update' }).click();
  await expect(page).toHaveURL(detailUrl);
  await page.getByRole('link', { name: 'Alle Änderungen' }).click();
  await expect(page).toHaveURL(/\/changelog$/);

  // An unknown entry says so (the spec fell back to the newest entry).
  await page.goto('/changelog/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { level: 1, name: m.notFoundTitle })).toBeVisible();
  await expect(page.getByText(m.notFoundText)).toBeVisible();

  // The Atom feed carries it, escaped.
  const feed = await page.request.get('/changelog.atom');
  expect(feed.headers()['content-type']).toContain('application/atom+xml');
  expect(await feed.text()).toContain(`<title>v9.1.0: ${title}</title>`);
});

test('staff edit and delete an entry; customers cannot reach the form', async ({ browser, page }) => {
  test.setTimeout(90_000);
  const staff = await signedIn(browser, 'owner');
  const title = `Wartungshinweis ${unique('c')}`;
  try {
    await staff.page.goto('/changelog-create');
    await staff.page.getByLabel('Titel', { exact: true }).fill(title);
    await staff.page.getByLabel('Beschreibung', { exact: true }).fill('Kurze Ankündigung.');
    await staff.page.getByLabel('Typ', { exact: true }).selectOption({ label: 'Ankündigung' });
    const group = staff.page.getByRole('group', { name: 'Änderung 1' });
    await group.getByLabel('Titel der Änderung').fill('Wartungsfenster');
    await group.getByLabel('Beschreibung der Änderung').fill('Sonntag 2–4 Uhr.');
    await staff.page.getByRole('button', { name: 'Speichern' }).click();
    await expect(staff.page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // Announcements have no documentation block.
    await expect(staff.page.getByRole('heading', { name: 'Dokumentation' })).toHaveCount(0);
    await staff.page.goto('/changelog');
    const card = staff.page.getByRole('listitem').filter({ has: staff.page.getByRole('heading', { name: title }) });
    await card.getByRole('button', { name: `Details anzeigen: ${title}` }).click();
    await staff.page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Bearbeiten' }).click();
    await expect(staff.page.getByLabel('Titel', { exact: true })).toHaveValue(title);
    await staff.page.getByLabel('Titel', { exact: true }).fill(`${title} (verschoben)`);
    await staff.page.getByRole('button', { name: 'Speichern' }).click();
    await expect(staff.page.getByText(m.saved)).toBeVisible();
    await expect(staff.page.getByRole('heading', { level: 1, name: `${title} (verschoben)` })).toBeVisible();
    await staff.page.goto(staff.page.url().replace(/\/changelog\/(.+)$/, '/changelog-create?edit=$1'));
    await staff.page.getByRole('button', { name: 'Eintrag löschen' }).click();
    await staff.page.getByRole('dialog', { name: 'Eintrag löschen?' }).getByRole('button', { name: 'Löschen' }).click();
    await expect(staff.page.getByText(m.deleted)).toBeVisible();
    await expect(staff.page).toHaveURL(/\/changelog$/);
    await expect(staff.page.getByRole('heading', { name: `${title} (verschoben)` })).toHaveCount(0);
  } finally {
    await staff.context.close();
  }
  const customer = await signedIn(browser, 'customer');
  try {
    await customer.page.goto('/changelog-create');
    await expect(customer.page).toHaveURL(/\/notfound$/);
  } finally {
    await customer.context.close();
  }
  await page.goto('/changelog-create');
  await expect(page).toHaveURL(/\/login$/);
});

test('the changelog is rendered on the server: readable without JavaScript, new entries at once, unknown ids 404', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const title = `Server-gerendert ${unique('ssr')}`;
  const headers = await apiAuth(request, 'employee');
  const created = await request.post('/api/staff/changelog', {
    headers,
    data: { title, description: 'Ohne JavaScript lesbar <i>und</i> sofort da.', version: 'v9.9.9', releaseDate: '2029-06-01', type: 'feature', highlight: false,
      changes: [{ title: 'Erste Änderung SSR', description: 'Steht im HTML.', type: 'feature' }, { title: 'Zweite Änderung SSR', description: 'Auch.', type: 'improvement' }] },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  try {
    // Plain HTTP: the entry (created a moment ago, no rebuild) is in the HTML with its changes, escaped,
    // and the data block the client hydrates from is JSON, not an executable script.
    for (const route of ['/changelog', '/Changelog']) {
      const res = await request.get(route);
      expect(res.status()).toBe(200);
      const html = await res.text();
      expect(html).toContain(title);
      expect(html).toContain('Erste Änderung SSR');
      expect(html).toContain('Ohne JavaScript lesbar &lt;i&gt;und&lt;/i&gt; sofort da.');
      expect(html).toMatch(/<script type="application\/json" id="hp-initial-data">/);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    }
    const detail = await request.get(`/changelog/${id}`);
    expect(detail.status()).toBe(200);
    const detailHtml = await detail.text();
    expect(detailHtml).toContain(`<title>v9.9.9: ${title} | Musterhost</title>`);
    expect(detailHtml).toContain('Zweite Änderung SSR');
    expect(detailHtml).toContain('Älteres Update');
    const missing = await request.get('/changelog/00000000-0000-4000-8000-000000000000');
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain(m.notFoundTitle);
    expect((await request.get('/changelog/kein-eintrag')).status()).toBe(404);

    // A browser with JavaScript off shows the same.
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/changelog');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
      await expect(card.getByText('Erste Änderung SSR')).toBeVisible();
      await page.goto(`/changelog/${id}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('Zweite Änderung SSR')).toBeVisible();
      await page.goto('/changelog/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: m.notFoundTitle })).toBeVisible();
    } finally {
      await context.close();
    }

    // With JavaScript the page hydrates from the embedded data: no second request for the list, no
    // spinner, and it stays interactive (the modal opens).
    const context2 = await browser.newContext();
    try {
      const page = await context2.newPage();
      const apiCalls: string[] = [];
      page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/changelog')) apiCalls.push(r.url()); });
      const errors: string[] = [];
      page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(() => {
        const w = window as unknown as { cspViolations: string[] };
        w.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      await page.goto('/changelog');
      await expect(page.getByRole('status')).toHaveCount(0); // no spinner while hydrating
      // Its buttons stay disabled until hydrated (useHydrated); wait for the scripts, then use them.
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('status')).toHaveCount(0);
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
      await card.getByRole('button', { name: `Details anzeigen: ${title}` }).click();
      await expect(page.getByRole('dialog', { name: title }).getByText('Zweite Änderung SSR')).toBeVisible();
      expect(apiCalls).toEqual([]);
      expect(errors, 'no console errors (CSP, hydration)').toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
      // The server-rendered 404 stays the 404 after hydration.
      await page.goto('/changelog/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: m.notFoundTitle })).toBeVisible();
    } finally {
      await context2.close();
    }
  } finally {
    await request.delete(`/api/staff/changelog/${id}`, { headers });
  }
});
