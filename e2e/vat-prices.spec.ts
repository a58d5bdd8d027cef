import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { domainYearCents, formatEuro, hostingPriceCents, priceCents, splitGross, taxInvoiceNotes } from '@hp/contract';
import { checkScreens } from './screens.ts';
import { createVerifiedAccount, distinctClient, login, PASSWORD, payWithCard } from './support.ts';

/**
 * Issue 24: every price the customer sees follows the tax decision, and so do the charge and the
 * invoice. The e2e server runs with VAT_EU_CONSUMERS=destination (playwright.config.ts), so an EU
 * consumer outside Germany pays their own country's VAT. Screens at 390 and 1280 px go to the test's
 * output folder (checkScreens also runs axe and the side-scroll check).
 */

// The configurator's defaults: Linux, 2 cores, 4 GB RAM, 50 GB storage, 1 month.
const LIST_GROSS = priceCents({ os: 'linux', cpu: 2, ram: 4, storage: 50, months: 1 });
const NET = splitGross(LIST_GROSS).netCents;
const TERMS = 'Ich akzeptiere die AGB und Datenschutzbestimmungen';
/** formatEuro puts a no-break space before the sign; the page's text is compared as the user reads it. */
const euro = (cents: number) => formatEuro(cents);

interface Profile { country: string; street: string; zipCode: string; city: string; business?: boolean; companyName?: string; vatId?: string }

/** A verified customer whose profile (country, business status, VAT ID) is set through the API. */
async function customerIn(request: APIRequestContext, prefix: string, profile: Profile) {
  const { username } = await createVerifiedAccount(request, prefix);
  const res = await request.post('/api/auth/login', { headers: distinctClient(), data: { username, password: PASSWORD } });
  expect(res.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await res.json()).token as string}` };
  const update = await request.put('/api/account/profile', {
    headers,
    data: { phone: '', industry: '', companyName: '', business: false, vatId: '', ...profile },
  });
  expect(update.status(), await update.text()).toBe(200);
  return { username, headers };
}

/** Orders the configurator's defaults and pays on the simulated provider's page, checking the amount it charges. */
async function buyDefaultServer(page: Page, chargedCents: number) {
  await page.getByLabel(TERMS).check();
  await page.getByRole('button', { name: 'Jetzt bestellen' }).click();
  await expect(page).toHaveURL(/\/pay\/sim\/cs_sim_/);
  await expect(page.getByRole('button', { name: /^Bezahlen/ })).toHaveText(`Bezahlen ${euro(chargedCents)}`);
  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/shop\/payment\?session_id=cs_sim_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Zahlung erfolgreich' })).toBeVisible({ timeout: 40_000 });
}

/** The customer's newest order and, once the background job issued it, the invoice's XRechnung XML. */
async function orderAndInvoiceXml(request: APIRequestContext, headers: Record<string, string>) {
  const orders = await (await request.get('/api/orders', { headers })).json();
  const orderId = orders.items[0].id as string;
  let invoiceId: string | null = null;
  await expect(async () => {
    invoiceId = (await (await request.get(`/api/orders/${orderId}`, { headers })).json()).invoiceId;
    expect(invoiceId).not.toBeNull();
  }).toPass({ timeout: 60_000 });
  const xml = await request.get(`/api/invoices/${invoiceId}/xrechnung`, { headers });
  expect(xml.status()).toBe(200);
  return { orderId, xml: await xml.text() };
}

/** The VAT category of the document's tax subtotal (UBL cac:TaxSubtotal/cac:TaxCategory/cbc:ID). */
const subtotalCategory = (xml: string) => xml.match(/<cac:TaxSubtotal>[\s\S]*?<cac:TaxCategory>\s*<cbc:ID>([A-Z]+)<\/cbc:ID>/)?.[1];

test('a visitor sees German prices and the hint that business customers and customers abroad see theirs after signing in', async ({ page }) => {
  await page.goto('/shop/kvm-server');
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(euro(LIST_GROSS));
  await expect(page.getByTestId('tax-label')).toHaveText('inkl. 19 % USt.');
  await expect(page.getByText('Firmenkunden und Kunden im Ausland sehen ihren Preis nach der Anmeldung.')).toBeVisible();
});

test('a Swiss consumer sees and pays the net price, and the order and the invoice say it is not taxable in Germany', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { username, headers } = await customerIn(request, 'ch', { country: 'CH', street: 'Bahnhofstrasse 1', zipCode: '8001', city: 'Zürich' });
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);

  await page.goto('/shop/kvm-server');
  const price = page.getByRole('status', { name: 'Gesamtpreis' });
  expect(NET).toBe(405);
  await expect(price).toHaveText(euro(NET));
  await expect(page.getByTestId('tax-label')).toHaveText('ohne USt. (nicht im Inland steuerbar)');
  await expect(page.getByText(`Auf der Rechnung: ${taxInvoiceNotes.notTaxableConsumer}`)).toBeVisible();
  await checkScreens(page, 'vat-ch-configurator');

  await buyDefaultServer(page, NET);
  await expect(page.locator('dt:has-text("Betrag") + dd')).toHaveText(euro(NET));
  await expect(page.locator('dt:has-text("Umsatzsteuer") + dd')).toHaveText('ohne USt. (nicht im Inland steuerbar)');

  const { orderId, xml } = await orderAndInvoiceXml(request, headers);
  await page.goto(`/dashboard/order/${orderId}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Gesamtbetrag' })).toBeVisible();
  const total = page.locator('dl').filter({ hasText: 'Nettobetrag' }).last();
  await expect(total.locator('dt:has-text("Nettobetrag") + dd')).toHaveText(euro(NET));
  await expect(total.locator('dt:has-text("USt. 0 % – nicht im Inland steuerbar") + dd')).toHaveText(euro(0));
  await expect(total.locator('dt:text-is("Gesamt") + dd')).toHaveText(euro(NET));
  await expect(page.getByTestId('order-tax-note')).toHaveText(`Auf der Rechnung: ${taxInvoiceNotes.notTaxableConsumer}`);
  await checkScreens(page, 'vat-ch-order');

  // The e-invoice: category O (not subject to VAT), the exemption code and the note why.
  expect(subtotalCategory(xml)).toBe('O');
  expect(xml).toContain('VATEX-EU-O');
  expect(xml).toContain(taxInvoiceNotes.notTaxableConsumer);
  expect(xml).toContain(`<cbc:TaxInclusiveAmount currencyID="EUR">${(NET / 100).toFixed(2)}</cbc:TaxInclusiveAmount>`);
});

test('an Austrian company with a confirmed VAT ID sees net prices with Reverse Charge and gets a reverse-charge invoice', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { username, headers } = await customerIn(request, 'at', {
    country: 'AT', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU12345678',
  });
  // The simulated check confirms the ID (numbers not ending in 0000 or 9999).
  const profile = await (await request.get('/api/account/profile', { headers })).json();
  expect(profile.vatCheck?.status).toBe('valid');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);

  await page.goto('/shop/kvm-server');
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(euro(NET));
  await expect(page.getByTestId('tax-label')).toHaveText('Reverse Charge');
  await expect(page.getByText(`Auf der Rechnung: ${taxInvoiceNotes.reverseCharge}`)).toBeVisible();
  await checkScreens(page, 'vat-at-configurator');

  // The other shops price the same way: web hosting (per month and the total) and the domain search.
  await page.goto('/shop/webhosting');
  const hostingNet = splitGross(hostingPriceCents({ plan: 'professional', months: 1 })).netCents;
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(euro(hostingNet));
  await expect(page.getByText(`Auf der Rechnung: ${taxInvoiceNotes.reverseCharge}`)).toBeVisible();
  await checkScreens(page, 'vat-at-webhosting');
  await page.goto('/domain?q=example');
  const deRow = page.getByRole('list', { name: 'Suchergebnis' }).getByRole('listitem').filter({ has: page.getByText('example.de', { exact: true }) });
  await expect(deRow).toContainText(`${euro(splitGross(domainYearCents('de')).netCents)} / Jahr Reverse Charge`);
  await page.goto('/shop/kvm-server');

  await buyDefaultServer(page, NET);
  await expect(page.locator('dt:has-text("Betrag") + dd')).toHaveText(euro(NET));
  await expect(page.locator('dt:has-text("Umsatzsteuer") + dd')).toHaveText('Reverse Charge');

  const { orderId, xml } = await orderAndInvoiceXml(request, headers);
  await page.goto(`/dashboard/order/${orderId}`);
  const total = page.locator('dl').filter({ hasText: 'Nettobetrag' }).last();
  await expect(total.locator('dt:has-text("USt. 0 % – Reverse Charge") + dd')).toHaveText(euro(0));
  await expect(total.locator('dt:text-is("Gesamt") + dd')).toHaveText(euro(NET));
  await expect(page.getByTestId('order-tax-note')).toHaveText(`Auf der Rechnung: ${taxInvoiceNotes.reverseCharge}`);
  await checkScreens(page, 'vat-at-order');

  // Reverse charge: category AE, the exemption code, the buyer's and the seller's VAT IDs (BT-48, BT-31).
  expect(subtotalCategory(xml)).toBe('AE');
  expect(xml).toContain('VATEX-EU-AE');
  expect(xml).toContain('<cbc:CompanyID>ATU12345678</cbc:CompanyID>');
  expect(xml).toMatch(/<cbc:CompanyID>DE\d{9}<\/cbc:CompanyID>/);
});

test('a French consumer above the threshold sees and pays the net price plus 20 % French VAT', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { username, headers } = await customerIn(request, 'fr', { country: 'FR', street: '1 rue de Rivoli', zipCode: '75001', city: 'Paris' });
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard/);

  // 4,05 € net + 20 % (0,81 €) = 4,86 €, not the German 4,82 €.
  const vat = Math.round((NET * 20) / 100);
  const gross = NET + vat;
  expect(gross).toBe(486);
  await page.goto('/shop/kvm-server');
  await expect(page.getByRole('status', { name: 'Gesamtpreis' })).toHaveText(euro(gross));
  await expect(page.getByTestId('tax-label')).toHaveText('inkl. 20 % USt.');
  await expect(page.getByText(`Auf der Rechnung: ${taxInvoiceNotes.oss('Frankreich')}`)).toBeVisible();
  await checkScreens(page, 'vat-fr-configurator');

  await buyDefaultServer(page, gross);
  await expect(page.locator('dt:has-text("Betrag") + dd')).toHaveText(euro(gross));
  await expect(page.locator('dt:has-text("Umsatzsteuer") + dd')).toHaveText('inkl. 20 % USt.');

  const { orderId, xml } = await orderAndInvoiceXml(request, headers);
  await page.goto(`/dashboard/order/${orderId}`);
  const total = page.locator('dl').filter({ hasText: 'Nettobetrag' }).last();
  await expect(total.locator('dt:has-text("Nettobetrag") + dd')).toHaveText(euro(NET));
  await expect(total.locator('dt:text-is("USt. 20 %") + dd')).toHaveText(euro(vat));
  await expect(total.locator('dt:has-text("Gesamt (brutto)") + dd')).toHaveText(euro(gross));
  await checkScreens(page, 'vat-fr-order');

  expect(subtotalCategory(xml)).toBe('S');
  expect(xml).toMatch(/<cac:TaxSubtotal>[\s\S]*?<cbc:Percent>20(\.00)?<\/cbc:Percent>/);
  expect(xml).toContain(`<cbc:TaxInclusiveAmount currencyID="EUR">${(gross / 100).toFixed(2)}</cbc:TaxInclusiveAmount>`);
});
