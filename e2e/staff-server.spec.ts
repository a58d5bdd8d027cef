import { test, expect } from '@playwright/test';
import { createServerFor, createVerifiedAccount, demoAccount, login } from './support.ts';

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`staff open a customer's server from the table, stop it after confirming and see their action logged (${viewport.width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const { username, email } = await createVerifiedAccount(request, 'kundensicht');
    const server = await createServerFor(request, username);
    const vmid = String(server.vmid).padStart(3, '0');

    const staff = demoAccount('employee');
    await login(page, staff.username, staff.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/dashboard/servers');
    await page.getByLabel('Server suchen').fill(username);
    // The list narrows to this customer's one server before the click (a row moving under the pointer takes it).
    await expect(page.getByRole('link', { name: /^Details zu Server/ })).toHaveCount(1);
    await page.getByRole('link', { name: `Details zu Server ${vmid}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/servers/${server.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`srv-${server.vmid}`);
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByText(server.ip!, { exact: true })).toBeVisible();
    await expect(page.getByText(`Manuell angelegt von ${staff.username}`, { exact: false })).toBeVisible();
    await expect(page.getByText('Grund: Testserver der Browser-Journeys')).toBeVisible();
    await expect(page.getByRole('main').locator('header').getByText('Online')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('list', { name: 'Vorgänge' }).getByText('Einrichtung')).toBeVisible();

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Server des Kunden stoppen?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Stoppen' }).click();
    await expect(page.getByRole('main').locator('header').getByText('Offline')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Mitarbeiteraktionen' }).getByText('Server gestoppt')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Mitarbeiteraktionen' })).toContainText(staff.username);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });
}

test('a customer sees their server set up by staff as "Unbefristet" and gets the not-found page on the staff view', async ({ page, request }) => {
  const { username } = await createVerifiedAccount(request, 'neugierig');
  const server = await createServerFor(request, username);
  await login(page, username, 'Sicher!Passwort1');
  await expect(page).toHaveURL(/\/dashboard$/);
  // Their own view of a server staff set up without an order: no term, nothing to renew.
  await page.goto(`/dashboard/linux/${server.id}`);
  await expect(page.getByText('Unbefristet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Verlängern' })).toHaveCount(0);
  await page.goto(`/dashboard/servers/${server.id}`);
  await expect(page).toHaveURL(/\/notfound$/);
});
