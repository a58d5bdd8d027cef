import { test, expect } from '@playwright/test';
import { formatEuro, shopMessages, VDC_LIMITS } from '@hp/contract';
import { checkScreens, DESKTOP, signedIn } from './screens.ts';
import { createVerifiedAccount, login, mailFromOutbox, PASSWORD, payWithCard } from './support.ts';

/**
 * Virtual data center offer (issue 25): a customer sends an "Individuelle Anfrage", which becomes a
 * "VDC-Anfrage" ticket; staff answer it in the ticket with an offer beyond the sliders (more RAM than
 * VDC_LIMITS allows); the customer sees it arrive live, pays it at the stored price through the
 * simulated payment page and gets the pool. axe clean and no sideways scrolling at 1280 and 390 px on
 * the request, the ticket with the offer and the offer's checkout.
 */

const OFFER = { cpu: 6, ram: VDC_LIMITS.ram.max + 32, storage: 300, ipv4: 1, months: 1, priceCents: 24_900 };

test('a customer asks for a larger pool, staff answer with an offer in the ticket, the customer pays it and gets the pool', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  const { username, email } = await createVerifiedAccount(request, 'vdcoffer');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // ── 1. The individual request becomes a ticket of type "VDC-Anfrage" ──
  await page.goto('/shop/vdc-request');
  await page.getByRole('tab', { name: 'Individuelle Anfrage' }).click();
  await page.getByRole('button', { name: 'Anfrage senden' }).click();
  await expect(page.getByText(/Mindestens 20 Zeichen|mindestens 20 Zeichen/).first()).toBeVisible();
  await page.getByLabel('Ihr Bedarf').fill(`${OFFER.ram} GB RAM für eine In-Memory-Datenbank, 6 vCPU und 300 GB Speicher.`);
  await page.getByLabel('Budget (optional)').fill('bis 300 € im Monat');
  await checkScreens(page, 'vdc-request');
  await page.getByRole('button', { name: 'Anfrage senden' }).click();
  await expect(page.getByText('Ihre Anfrage wurde als Ticket angelegt.')).toBeVisible();
  await page.getByRole('link', { name: 'Zum Ticket' }).click();
  await expect(page).toHaveURL(/\/support\/[0-9a-f-]{36}$/);
  const ticketId = page.url().split('/').pop()!;
  await expect(page.getByText('VDC-Anfrage').first()).toBeVisible();
  const customerOffers = page.getByRole('heading', { name: 'Angebote zum Virtual Data Center' }).locator('..');
  await expect(customerOffers).toContainText('Wir melden uns hier mit einem Angebot.');

  // ── 2. Staff answer in the ticket with an offer beyond the sliders ──
  const staff = await signedIn(browser, 'employee');
  const mailSince = Date.now();
  try {
    await staff.page.goto(`/supporter/${ticketId}`);
    await expect(staff.page.getByText('VDC-Anfrage').first()).toBeVisible();
    await expect(staff.page.getByText('Noch kein Angebot.')).toBeVisible();
    const form = staff.page.getByRole('form', { name: 'Angebot erstellen' });
    for (const [label, value] of [['vCPU-Kerne', OFFER.cpu], ['RAM (GB)', OFFER.ram], ['Speicher (GB)', OFFER.storage], ['IPv4-Adressen', OFFER.ipv4], ['Laufzeit (Monate)', OFFER.months], ['Gültigkeit (Tage)', 7]] as const) {
      await form.getByLabel(label, { exact: true }).fill(String(value));
    }
    // Without a price the contract refuses before anything is sent.
    await form.getByRole('button', { name: 'Angebot senden' }).click();
    await expect(form.getByRole('alert').first()).toBeVisible();
    await form.getByLabel('Preis in Euro (brutto, gesamte Laufzeit)').fill(String(OFFER.priceCents / 100));
    await form.getByRole('button', { name: 'Angebot senden' }).click();
    await expect(staff.page.getByText('Das Angebot wurde im Ticket gesendet.')).toBeVisible();
    const staffOffer = staff.page.getByRole('list', { name: 'Angebote' }).getByRole('listitem');
    await expect(staffOffer).toHaveCount(1);
    await expect(staffOffer).toContainText(`6 Kerne · ${OFFER.ram} GB RAM · 300 GB Speicher · 1 IPv4`);
    await expect(staffOffer).toContainText('Offen');
    await expect(staffOffer).toContainText(`${formatEuro(OFFER.priceCents)} brutto (Listenpreis)`);
    await checkScreens(staff.page, 'vdc-offer-staff');
    await staff.page.setViewportSize(DESKTOP);

    // The customer gets a mail about the answer.
    await mailFromOutbox(email, mailSince, /Angebot|Antwort/);

    // ── 3. The customer sees the offer arrive live and pays it ──
    const accept = page.getByRole('link', { name: 'Angebot annehmen' });
    await expect(accept).toBeVisible({ timeout: 20_000 });
    await expect(customerOffers).toContainText(formatEuro(OFFER.priceCents));
    await checkScreens(page, 'vdc-offer-ticket');
    await page.setViewportSize(DESKTOP);
    await accept.click();
    await expect(page).toHaveURL(/\/shop\/vdc-request\?offer=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Ihr Angebot' })).toBeVisible();
    await expect(page.getByTestId('vdc-offer-total')).toHaveText(formatEuro(OFFER.priceCents));
    await page.getByRole('button', { name: 'Angebot annehmen und bezahlen' }).click();
    await expect(page.locator('#vdc-offer-terms-error')).toHaveText(shopMessages.termsRequired);
    await page.getByLabel('Name des Virtual Data Centers (optional)').fill('Datenbank');
    await page.getByLabel(/Ich akzeptiere die/).check();
    await checkScreens(page, 'vdc-offer-checkout');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Angebot annehmen und bezahlen' }).click();
    await payWithCard(page, '4242 4242 4242 4242');
    await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
    await page.getByRole('link', { name: 'Zum Virtual Data Center' }).click();
    await expect(page).toHaveURL(/\/dashboard\/vdc\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Datenbank' })).toBeVisible();
    await expect(page.getByText('Aktiv', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
    const bar = (label: string) => page.getByRole('progressbar', { name: label, exact: true });
    await expect(bar('vCPU')).toHaveAttribute('aria-valuetext', /^0 von 6 Kernen belegt/);
    await expect(bar('RAM')).toHaveAttribute('aria-valuetext', new RegExp(`^0 von ${OFFER.ram} GB belegt`));

    // ── 4. Staff see the offer accepted; it cannot be paid twice ──
    await expect(staffOffer).toContainText('Angenommen', { timeout: 20_000 });
    await expect(staffOffer.getByRole('button', { name: 'Zurückziehen' })).toHaveCount(0);
    await page.goto(`/support/${ticketId}`);
    await expect(customerOffers).toContainText('Angenommen');
    await expect(page.getByRole('link', { name: 'Angebot annehmen' })).toHaveCount(0);
  } finally {
    await staff.context.close();
  }
});
