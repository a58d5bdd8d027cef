import fs from 'node:fs';
import { test, expect } from '@playwright/test';
import { customerDetailMessages as dm } from '@hp/contract';
import { createVerifiedAccount, demoAccount, mailFromOutbox } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

test('staff find a customer by part of the e-mail, sort the list and export the search as CSV', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { username, email } = await createVerifiedAccount(request, 'crm');
  const part = email.split('@')[0]!.slice(-8).toUpperCase();
  const staff = await signedIn(browser, 'employee');
  try {
    await staff.page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Kundenverwaltung' }).click();
    await expect(staff.page.getByRole('heading', { level: 1, name: 'Kundenverwaltung' })).toBeVisible();
    await staff.page.getByLabel('Kunden suchen').fill(part);
    const row = staff.page.getByRole('row').filter({ hasText: username });
    await expect(row).toBeVisible();
    await expect(staff.page.getByRole('row')).toHaveCount(2);
    await expect(row.getByText('Privatkunde')).toBeVisible();
    await expect(row.getByRole('link', { name: `Details zu ${username}` })).toHaveAttribute('href', /\/dashboard\/customer-details\/[0-9a-f-]{36}$/);
    await staff.page.getByLabel('Sortierung').selectOption({ label: 'Name (A–Z)' });
    await expect(staff.page).toHaveURL(/sort=name/);
    await checkScreens(staff.page, 'customer-overview');

    const download = staff.page.waitForEvent('download');
    await staff.page.getByRole('button', { name: 'CSV exportieren' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^kunden-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('Kundennummer;Name;E-Mail;Firma;Kundenart;Kunde seit;Letzte Anmeldung');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`;${username};${email};`);

    // The detail: header from real data, and a staff note with author and date.
    await row.getByRole('link', { name: `Details zu ${username}` }).click();
    await expect(staff.page.getByRole('heading', { level: 1, name: username })).toBeVisible();
    await expect(staff.page.getByText(/^Privatkunde \| Kundennummer \d+$/)).toBeVisible();
    await expect(staff.page.getByText('Keine Server.')).toBeVisible();
    await staff.page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(staff.page.getByText(dm.noteRequired)).toBeVisible();
    await staff.page.getByLabel('Neue Notiz').fill('Hat nach <b>Rabatt</b> gefragt.');
    await staff.page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(staff.page.getByText(dm.noteSaved)).toBeVisible();
    const note = staff.page.getByRole('list', { name: 'Notizen' }).getByRole('listitem').first();
    await expect(note).toContainText('Hat nach <b>Rabatt</b> gefragt.');
    await expect(note).toContainText(demoAccount('employee').username);
    // A real mail through the mail driver: in the outbox, and under Kommunikation with the sender.
    const since = Date.now();
    await staff.page.getByRole('button', { name: 'E-Mail senden' }).click();
    const mailDialog = staff.page.getByRole('dialog', { name: 'E-Mail senden' });
    await mailDialog.getByLabel('Betreff').fill('Ihr Angebot');
    await mailDialog.getByLabel('Nachricht').fill('Guten Tag,\nanbei das Angebot für 8 Kerne.');
    await mailDialog.getByRole('button', { name: 'Senden' }).click();
    await expect(staff.page.getByText(dm.mailQueued)).toBeVisible();
    await mailFromOutbox(email, since, /anbei das Angebot f/);
    const contacts = staff.page.getByRole('list', { name: 'Kommunikation' });
    await expect(contacts.getByText('Ihr Angebot')).toBeVisible({ timeout: 15_000 });
    await staff.page.getByRole('button', { name: 'Kommunikation erfassen' }).click();
    const recordDialog = staff.page.getByRole('dialog', { name: 'Kommunikation erfassen' });
    await recordDialog.getByLabel('Betreff').fill('Telefonat zum Angebot');
    await recordDialog.getByRole('button', { name: 'Speichern', exact: true }).click();
    await expect(contacts.getByText('Telefonat zum Angebot')).toBeVisible();
    await expect(contacts.getByRole('listitem').filter({ hasText: 'Telefonat zum Angebot' })).toContainText('Keine Notizen.');

    // Settings: a change is logged with who and old → new; locking asks first.
    await staff.page.getByLabel('Ort', { exact: true }).fill('Leipzig');
    await staff.page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await expect(staff.page.getByText(dm.saved)).toBeVisible();
    const log = staff.page.getByRole('list', { name: 'Änderungsprotokoll' });
    await expect(log.getByText('Kundendaten geändert')).toBeVisible();
    await expect(log.getByText('Ort: (leer) → Leipzig')).toBeVisible();
    await staff.page.getByRole('button', { name: 'Konto sperren' }).click();
    await staff.page.getByRole('dialog', { name: 'Konto sperren?' }).getByRole('button', { name: 'Konto sperren' }).click();
    await expect(staff.page.getByText(dm.locked)).toBeVisible();
    await expect(staff.page.getByRole('heading', { name: 'Konto gesperrt' })).toBeVisible();
    await staff.page.getByRole('button', { name: 'Konto freigeben' }).click();
    await expect(staff.page.getByRole('heading', { name: 'Konto aktiv' })).toBeVisible();
    await checkScreens(staff.page, 'customer-detail');
  } finally {
    await staff.context.close();
  }
  const customer = await signedIn(browser, 'customer');
  try {
    await customer.page.goto('/dashboard/customer-overview');
    await expect(customer.page).toHaveURL(/\/notfound$/);
  } finally {
    await customer.context.close();
  }
});
