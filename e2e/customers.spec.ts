import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { customerDetailMessages as dm, customerDocumentMessages as docm, formatDayMonthYear, invoiceMessages as im } from '@hp/contract';
import { createVerifiedAccount, demoAccount, mailFromOutbox } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

test('staff find a customer by part of the e-mail, sort the list and export the search as CSV', async ({ browser, request }) => {
  test.setTimeout(240_000);
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
    await expect(staff.page.getByRole('heading', { name: 'Domains', exact: true })).toBeVisible();
    await expect(staff.page.getByText('Keine Domains.')).toBeVisible();
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
    await staff.page.getByRole('tab', { name: 'Einstellungen' }).click();
    await expect(staff.page).toHaveURL(/tab=settings/);
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
    // The confirmation may come a moment after the heading; the screens are checked without it.
    await expect(staff.page.getByText(dm.unlocked)).toBeVisible();
    await checkScreens(staff.page, 'customer-detail-settings');

    // A manual invoice from the quick action: without a full address it is refused and nothing typed is lost.
    await staff.page.getByRole('tab', { name: 'Übersicht' }).click();
    await checkScreens(staff.page, 'customer-detail');
    await staff.page.getByRole('button', { name: 'Rechnung erstellen' }).click();
    const invoiceDialog = staff.page.getByRole('dialog', { name: 'Rechnung erstellen' });
    await invoiceDialog.getByRole('button', { name: 'Rechnung ausstellen' }).click();
    await expect(invoiceDialog.getByText(im.lineDescription)).toBeVisible();
    const first = invoiceDialog.getByRole('group', { name: 'Position 1' });
    await first.getByLabel('Beschreibung').fill('Einrichtung <Mailserver>');
    await first.getByLabel('Menge').fill('1,5');
    await first.getByLabel('Einheit').selectOption({ label: 'Stunde(n)' });
    await first.getByLabel('Einzelpreis netto (€)').fill('85,00');
    await invoiceDialog.getByRole('button', { name: 'Weitere Position' }).click();
    const second = invoiceDialog.getByRole('group', { name: 'Position 2' });
    await second.getByLabel('Beschreibung').fill('Zusätzliche IPv4-Adresse');
    await second.getByLabel('Menge').fill('3');
    await second.getByLabel('Einheit').selectOption({ label: 'Monat(e)' });
    await second.getByLabel('Einzelpreis netto (€)').fill('1,99');
    await expect(invoiceDialog.getByRole('definition').last()).toHaveText('158,83 €');
    await invoiceDialog.getByRole('button', { name: 'Rechnung ausstellen' }).click();
    await expect(invoiceDialog.getByText(im.addressMissing)).toBeVisible();
    await expect(first.getByLabel('Beschreibung')).toHaveValue('Einrichtung <Mailserver>');
    await invoiceDialog.getByRole('button', { name: 'Abbrechen' }).click();
    await staff.page.getByRole('tab', { name: 'Einstellungen' }).click();
    await staff.page.getByLabel('Straße und Hausnummer').fill('Hauptstraße 5');
    await staff.page.getByLabel('PLZ').fill('04109');
    await staff.page.getByRole('button', { name: 'Änderungen speichern' }).click();
    await expect(staff.page.getByText(dm.saved)).toBeVisible();
    await staff.page.getByRole('tab', { name: 'Dokumente' }).click();
    await staff.page.getByRole('button', { name: 'Rechnung erstellen' }).click();
    // The dialog kept what was typed before.
    await expect(first.getByLabel('Beschreibung')).toHaveValue('Einrichtung <Mailserver>');
    const since2 = Date.now();
    await invoiceDialog.getByRole('button', { name: 'Rechnung ausstellen' }).click();
    await expect(staff.page.getByText(/^Rechnung RE-\d{4}-\d{6} über 158,83\s€ erstellt/)).toBeVisible();
    await expect(invoiceDialog).toBeHidden();
    const invoiceRow = staff.page.getByRole('row').filter({ hasText: 'Einrichtung <Mailserver>' });
    await expect(invoiceRow.getByText('Offen', { exact: true })).toBeVisible();
    const number = (await invoiceRow.getByText(/^RE-\d{4}-\d{6}$/).textContent())!;
    const mail = await mailFromOutbox(email, since2, new RegExp(`Rechnung ${number}`));
    // Mailed with both documents attached (the text is covered by the API test; here it is QP-encoded).
    expect(mail).toContain(`Rechnung-${number}.pdf`);
    expect(mail).toContain(`Rechnung-${number}.xml`);

    // The e-invoice downloaded from the page passes the official validator.
    const xmlDownload = staff.page.waitForEvent('download');
    await invoiceRow.getByRole('button', { name: `E-Rechnung (XML) herunterladen: Rechnung ${number}` }).click();
    const xmlPath = (await (await xmlDownload).path())!;
    const validator = fileURLToPath(new URL('../tools/xrechnung/validate', import.meta.url));
    const verdict = execFileSync(validator, [xmlPath], { encoding: 'utf8' });
    expect(verdict).toMatch(/PASS .*\(0 error\(s\), 0 warning\(s\)/);

    // Its payment: a first part leaves it open, the rest makes it paid.
    await invoiceRow.getByRole('button', { name: `Zahlung erfassen zu Rechnung ${number}` }).click();
    const payDialog = staff.page.getByRole('dialog', { name: 'Zahlung erfassen' });
    await payDialog.getByLabel('Betrag (€)').fill('100,00');
    await payDialog.getByLabel('Zahlungsart').selectOption({ label: 'SEPA-Lastschrift' });
    await payDialog.getByRole('button', { name: 'Zahlung speichern' }).click();
    await expect(staff.page.getByText(/^Zahlung erfasst; offen sind noch 58,83\s€\.$/)).toBeVisible();
    await invoiceRow.getByRole('button', { name: `Zahlung erfassen zu Rechnung ${number}` }).click();
    await expect(payDialog.getByLabel('Betrag (€)')).toHaveValue('58,83');
    await payDialog.getByRole('button', { name: 'Zahlung speichern' }).click();
    await expect(staff.page.getByText(`Rechnung ${number} ist bezahlt.`)).toBeVisible();
    await expect(invoiceRow.getByText('Bezahlt', { exact: true })).toBeVisible();

    // Uploaded documents: a contract as PDF is listed with size, date and uploader, downloads under its
    // name, and goes only after a confirmation.
    await expect(staff.page.getByText(docm.none)).toBeVisible();
    await staff.page.getByLabel('Beschreibung (optional)').fill('Rahmenvertrag 2026');
    await staff.page.getByLabel('Dokument hochladen').setInputFiles({ name: 'Vertrag Müller.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n') });
    const documentRow = staff.page.getByRole('list', { name: 'Hochgeladene Dokumente' }).getByRole('listitem').filter({ hasText: 'Vertrag Müller.pdf' });
    await expect(documentRow).toContainText('Rahmenvertrag 2026');
    await expect(documentRow).toContainText(`77 B · ${formatDayMonthYear(new Date())} · hochgeladen von ${demoAccount('employee').username}`);
    const documentDownload = staff.page.waitForEvent('download');
    await documentRow.getByRole('button', { name: 'Herunterladen Vertrag Müller.pdf' }).click();
    expect((await documentDownload).suggestedFilename()).toBe('Vertrag Müller.pdf');
    await checkScreens(staff.page, 'customer-detail-documents');
    await documentRow.getByRole('button', { name: 'Löschen Vertrag Müller.pdf' }).click();
    await staff.page.getByRole('dialog', { name: 'Dokument löschen?' }).getByRole('button', { name: 'Löschen', exact: true }).click();
    await expect(staff.page.getByText(docm.deleted)).toBeVisible();
    await expect(documentRow).toHaveCount(0);
    await expect(staff.page.getByText(docm.none)).toBeVisible();
    await staff.page.getByRole('tab', { name: 'Übersicht' }).click();
    await expect(staff.page.getByText(/^133,47\s€$/)).toBeVisible();
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
