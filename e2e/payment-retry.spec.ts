import { test, expect, type Page } from '@playwright/test';
import { formatEuro, hostingPriceCents, shopMessages } from '@hp/contract';
import { checkScreens } from './screens.ts';
import { createVerifiedAccount, login, PASSWORD, payWithCard, unique } from './support.ts';

/** Decision 028: a declined card is not a dead end. */

const TERMS = 'Ich akzeptiere die AGB und Datenschutzbestimmungen';
const DECLINED = '4000 0000 0000 0002';

async function signIn(page: Page, request: Parameters<typeof createVerifiedAccount>[0], prefix: string) {
  const { username } = await createVerifiedAccount(request, prefix);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('a declined card keeps the order: "Erneut versuchen" opens a new payment, the second card pays and the server is delivered', async ({ page, request }) => {
  test.setTimeout(240_000);
  await signIn(page, request, 'retry');
  await page.goto('/shop/kvm-server');
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, DECLINED);
  const firstPayment = /\/shop\/payment\?order=[0-9a-f-]{36}$/;
  await expect(page).toHaveURL(firstPayment);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentFailed })).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'für Sie reserviert' })).toContainText(/bis \d{2}:\d{2} Uhr/);
  await expect(page.locator('dt:has-text("Status") + dd')).toHaveText('Zahlung offen');
  await expect(page.getByRole('link', { name: 'Neu konfigurieren' })).toHaveAttribute('href', '/shop/kvm-server?os=linux&distro=Debian%2012&cpu=2&ram=4&storage=50&months=1');
  await checkScreens(page, 'payment-declined');

  const firstUrl = page.url();
  await page.getByRole('button', { name: 'Erneut versuchen' }).click();
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/shop\/payment\?session_id=cs_sim_/);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  const orderNumber = (await page.locator('dt:has-text("Bestellnummer") + dd').textContent())!.trim();

  // The first result page now shows the same order as paid, not cancelled.
  await page.goto(firstUrl);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await expect(page.locator('dt:has-text("Bestellnummer") + dd')).toHaveText(orderNumber);

  await page.getByRole('link', { name: 'Zum Server' }).click();
  const card = page.getByRole('list', { name: 'Server' }).getByRole('listitem');
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card.getByText('Online')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('link', { name: 'Bestellen', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Bestellungen' }).getByRole('listitem')).toHaveCount(1);
});

test('"Neu konfigurieren" after a declined web hosting order opens the hosting shop with the order\'s plan, term and subdomain', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, request, 'reconf');
  await page.goto('/shop/webhosting');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhosting bestellen' })).toBeVisible();
  // The form is prerendered and disabled until React owns it: a click before that would not count.
  await expect(page.getByRole('radio', { name: /Starter/ })).toBeEnabled();
  await page.locator('label').filter({ has: page.getByRole('radio', { name: /Starter/ }) }).click();
  await expect(page.getByRole('radio', { name: /Starter/ })).toBeChecked();
  await page.getByRole('button', { name: '3 Monate' }).click();
  const sub = unique('neu');
  await page.getByRole('textbox', { name: 'Subdomain' }).fill(sub);
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();

  await payWithCard(page, DECLINED);
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentFailed })).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  await page.getByRole('link', { name: 'Neu konfigurieren' }).click();

  await expect(page).toHaveURL(new RegExp(`/shop/webhosting\\?plan=starter&months=3&subdomain=${sub}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Webhosting bestellen' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Subdomain' })).toHaveValue(sub);
  await expect(page.getByRole('radio', { name: /Starter/ })).toBeChecked();
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(formatEuro(hostingPriceCents({ plan: 'starter', months: 3 })));
  await checkScreens(page, 'hosting-reconfigured');

  // A changed order of the same subdomain goes through: the failed order is given up, its hold is not in the way.
  await page.getByRole('button', { name: '6 Monate' }).click();
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page).toHaveURL(/\/pay\/sim\/cs_sim_[0-9a-f]{32}$/);
});
