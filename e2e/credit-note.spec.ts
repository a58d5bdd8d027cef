import { test, expect } from '@playwright/test';
import { apiAuth, createVerifiedAccount } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

test('the owner cancels an open manual invoice with a credit note from the customer page; employees have no such button', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { username } = await createVerifiedAccount(request, 'gutschrift');
  const headers = await apiAuth(request, 'employee');
  const found = await (await request.get(`/api/staff/customers?q=${encodeURIComponent(username)}`, { headers })).json();
  const id = found.items[0].id as string;
  const address = { phone: '', street: 'Hauptstraße 5', zipCode: '04109', city: 'Leipzig', country: 'DE', companyName: '', industry: '' };
  expect((await request.put(`/api/staff/customers/${id}`, { headers, data: address })).status()).toBe(200);
  const issued = await request.post(`/api/staff/customers/${id}/invoices`, { headers, data: { lines: [{ description: 'Einrichtung Firewall', quantity: 1, unit: 'piece', unitNetCents: 9_900 }] } });
  expect(issued.status(), await issued.text()).toBe(201);
  const number = (await issued.json()).number as string;

  const employee = await signedIn(browser, 'employee');
  try {
    await employee.page.goto(`/dashboard/customer-details/${id}?tab=documents`);
    const row = employee.page.getByRole('row').filter({ hasText: number });
    await expect(row.getByText('Offen', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Gutschrift/ })).toHaveCount(0);
  } finally {
    await employee.context.close();
  }

  const owner = await signedIn(browser, 'owner');
  const { page } = owner;
  try {
    await page.goto(`/dashboard/customer-details/${id}?tab=documents`);
    const row = page.getByRole('row').filter({ hasText: 'Einrichtung Firewall' }).filter({ hasText: number });
    await row.getByRole('button', { name: `Gutschrift zu Rechnung ${number}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Gutschrift ausstellen' });
    await expect(dialog).toContainText(`Storniert Rechnung ${number} über 117,81`);
    // A reason is required; the dialog says so and keeps open.
    await dialog.getByRole('button', { name: 'Gutschrift ausstellen' }).click();
    await expect(dialog.getByText('Bitte geben Sie einen Grund an.')).toBeVisible();
    await dialog.getByLabel('Grund').fill('Leistung nicht erbracht');
    await dialog.getByRole('button', { name: 'Gutschrift ausstellen' }).click();
    await expect(page.getByText(/^Gutschrift GS-\d{4}-\d{6} ausgestellt und an den Kunden gesendet\.$/)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.getByText('Gutgeschrieben', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: `Zahlung erfassen zu Rechnung ${number}` })).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: /GS-\d{4}-\d{6}/ }).first()).toBeVisible();
    await checkScreens(page, 'customer-documents-credited');
  } finally {
    await owner.context.close();
  }
});
