import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { createVerifiedAccount, login, PASSWORD } from './support.ts';

const publicPages: [path: string, heading: RegExp][] = [
  ['/', /Leistungsstark und zuverlässig/],
  ['/root-server', /Root Server mit voller Kontrolle/],
  ['/webhosting', /Webhosting, das einfach funktioniert/],
  ['/cloud-speicher', /Ihre Daten\. Sicher in der Cloud\./],
  ['/virtual-data-center', /Ihr eigenes Rechenzentrum/],
  ['/domain', /Finden Sie Ihre Wunschdomain/],
  ['/impressum', /Impressum/],
  ['/datenschutz', /Datenschutzerklärung/],
  ['/agb', /Allgemeine Geschäftsbedingungen/],
  ['/faq', /Häufig gestellte Fragen/],
  ['/unternehmen', /^Über /],
  ['/rechenzentrum', /Unser Rechenzentrum/],
  ['/dokumentation', /Dokumentation/],
  ['/status', /Systemstatus/],
  ['/shop/webhosting', /Webhosting bestellen/],
  ['/shop/cloud-storage', /Cloud-Speicher bestellen/],
  ['/shop/vdc-request', /Virtual Data Center bestellen/],
  ['/login', /Login/],
  ['/register', /Registrieren/],
  ['/reset-password', /Passwort zurücksetzen/],
  ['/password-reset', /Passwort zurücksetzen/],
  ['/404', /Oops! Diese Seite wurde nicht gefunden/],
  ['/notfound', /Oops! Diese Seite wurde nicht gefunden/],
  ['/error', /Es ist ein Fehler aufgetreten/],
];

for (const [path, heading] of publicPages) {
  test(`${path} renders its German heading and passes axe`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    // CSP violations (e.g. a library probing eval) are not always console errors; collect them directly.
    await page.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] };
      w.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`));
    });
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await page.waitForLoadState('networkidle');
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(errors, 'no console errors (CSP, hydration)').toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
}

test('public pages are prerendered: content shows without JavaScript', { tag: '@smoke' }, async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [path, heading] of [['/', /Leistungsstark/], ['/faq', /Häufig gestellte Fragen/], ['/impressum', /Impressum/]] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  await expect(page.getByText('Hinweis:')).toHaveCount(0); // the banner is on the home page only
  await page.goto('/');
  // Every product is on sale now (the virtual data center was the last): no "bald verfügbar" notice.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Leistungsstark/);
  await expect(page.getByText(/bald verfügbar/)).toHaveCount(0);
  await context.close();
});

test('an unknown path answers 404 with the German page and a way home', async ({ page }) => {
  const response = await page.goto('/gibt-es-nicht/wirklich');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Diese Seite wurde nicht gefunden');
  await page.getByRole('link', { name: /Startseite/ }).first().click();
  await expect(page).toHaveURL(/\/$/);
});

test('the header shows Login without a token and Dashboard with one; the active link is marked', async ({ page }) => {
  await page.goto('/faq');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await page.evaluate(() => localStorage.setItem('jwt', 'x.eyJyb2xlIjoiY3VzdG9tZXIiLCJjdXN0b21lcklkIjoiMSJ9.y'));
  await page.goto('/');
  await expect(banner.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await expect(banner.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
});

test('the burger button opens and closes the navigation on small screens', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/');
  const burger = page.getByRole('button', { name: 'Menü öffnen' });
  await expect(page.getByRole('navigation', { name: 'Mobile Navigation' })).toHaveCount(0);
  await burger.click();
  const nav = page.getByRole('navigation', { name: 'Mobile Navigation' });
  await expect(nav.getByRole('link', { name: 'KVM Server' })).toBeVisible();
  await page.getByRole('button', { name: 'Menü schließen' }).click();
  await expect(nav).toHaveCount(0);
});

test('the hero phrase changes every 6 seconds', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  const hero = page.locator('h1 [data-active]');
  // The installed clock keeps flowing in real time while the page loads and hydrates: stop it, then move
  // in 500-ms steps to the next change, so the 6-s rhythm is measured from a known phase.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
  const initial = await hero.textContent();
  for (let i = 0; i < 14 && (await hero.textContent()) === initial; i++) await page.clock.runFor(500);
  const first = await hero.textContent();
  expect(first).not.toBe(initial);
  await page.clock.runFor(5000);
  await expect(hero).toHaveText(first!);
  await page.clock.runFor(1100);
  await expect(hero).not.toHaveText(first!);
});

test('the FAQ accordion keeps one answer open at a time', async ({ page }) => {
  await page.goto('/faq');
  const questions = page.locator('main button[aria-expanded]');
  await questions.nth(0).click();
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');
  await questions.nth(1).click();
  await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'true');
  await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');
  await questions.nth(1).click();
  await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'false');
});

test('shop buttons lead to the configurator and the web hosting, cloud storage and virtual data center shops', async ({ page }) => {
  await page.goto('/shop/root-server');
  await expect(page).toHaveURL(/\/shop\/kvm-server$/);
  await page.goto('/webhosting');
  await page.getByRole('main').getByRole('link', { name: /bestellen|Jetzt/i }).first().click();
  await expect(page).toHaveURL(/\/shop\/webhosting$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhosting bestellen');
  await page.goto('/cloud-speicher');
  await page.getByRole('main').getByRole('link', { name: /bestellen|Jetzt/i }).first().click();
  await expect(page).toHaveURL(/\/shop\/cloud-storage$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cloud-Speicher bestellen');
  await page.goto('/virtual-data-center');
  await page.getByRole('main').getByRole('link', { name: /bestellen|Jetzt/i }).first().click();
  await expect(page).toHaveURL(/\/shop\/vdc-request$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Virtual Data Center bestellen');
});

test('the footer links "Unternehmen", "Rechenzentrum" and "Dokumentation" open their pages', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  for (const [name, url, heading] of [
    ['Unternehmen', /\/unternehmen$/, /^Über /],
    ['Rechenzentrum', /\/rechenzentrum$/, 'Unser Rechenzentrum'],
    ['Dokumentation', /\/dokumentation$/, 'Dokumentation'],
  ] as const) {
    await footer.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  // The company page shows the configured company, the same source as the imprint.
  await page.goto('/impressum');
  const vatId = (await page.getByText(/DE\d{9}/).first().textContent())!.match(/DE\d{9}/)![0];
  await page.goto('/unternehmen');
  await expect(page.getByRole('main')).toContainText(vatId);
});

test('the documentation search filters articles and says when nothing matches', async ({ page }) => {
  await page.goto('/dokumentation#ssh-schluessel-hinterlegen');
  await expect(page.locator('#ssh-schluessel-hinterlegen')).toBeInViewport();
  const search = page.getByRole('searchbox', { name: 'Dokumentation durchsuchen' });
  await search.fill('nameserver');
  await expect(page.locator('#domain-nameserver')).toBeVisible();
  await expect(page.locator('#server-backup')).toHaveCount(0);
  await search.fill('Quantencomputer');
  await expect(page.getByText('Keine Treffer für „Quantencomputer“')).toBeVisible();
  await expect(page.locator('main article')).toHaveCount(0);
});

test('a prerendered shop hydrates without preload links, the portal still preloads its chunks (decision 039)', async ({ page, request }) => {
  await page.goto('/shop/webhosting');
  // Enabled once React owns the form: the page's lazy chunks have loaded by then.
  await expect(page.getByRole('button', { name: 'Jetzt bestellen' })).toBeEnabled();
  expect(await page.locator('link[rel=modulepreload]').count()).toBe(0);

  const { username } = await createVerifiedAccount(request);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Produkte' })).toBeVisible();
  expect(await page.locator('link[rel=modulepreload]').count()).toBeGreaterThan(0);
});
