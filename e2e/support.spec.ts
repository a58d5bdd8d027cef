import { test, expect, type Page } from '@playwright/test';
import { SUPPORT_AGENT_LABEL, ticketMessages as m } from '@hp/contract';
import { apiAuth, createServerFor, createVerifiedAccount, demoAccount, login, PASSWORD, unique } from './support.ts';
import { checkScreens, DESKTOP, PHONE, signedIn } from './screens.ts';

// A real 1×1 PNG: the server decides the type by these bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201c4a0d2b40000000049454e44ae426082', 'hex');

test('a customer opens a ticket about their server, staff take it over and answer live, a note stays internal, the customer closes it', { tag: '@smoke' }, async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const { username } = await createVerifiedAccount(request, 'ticket');
  const server = await createServerFor(request, username);
  const title = `Kein SSH ${unique('t')}`;

  // 1. The customer opens a ticket about their server.
  await page.setViewportSize(DESKTOP);
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Support' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(page.getByText('Sie haben noch keine Tickets.')).toBeVisible();
  await page.getByRole('button', { name: 'Neues Ticket' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neues Ticket' });
  await dialog.getByRole('button', { name: 'Ticket erstellen' }).click();
  await expect(dialog.getByText(m.titleRequired)).toBeVisible();
  await dialog.getByLabel('Titel').fill(`  ${title}  `);
  await dialog.getByLabel('Art').selectOption({ label: 'Störung' });
  await dialog.getByLabel('Betroffener Server (optional)').selectOption({ value: server.id });
  await dialog.getByLabel('Beschreibung').fill('Seit dem Neustart <b>keine</b> Verbindung.');
  await dialog.getByRole('button', { name: 'Ticket erstellen' }).click();
  await expect(page).toHaveURL(/\/support\/[0-9a-f-]{36}$/);
  const ticketId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('Seit dem Neustart <b>keine</b> Verbindung.')).toBeVisible();

  // 2. Staff see it in the overview, take it over and answer.
  const staff = await signedIn(browser, 'employee');
  try {
    await staff.page.getByRole('navigation', { name: 'Portal-Navigation' }).getByRole('link', { name: 'Ticket-Übersicht' }).click();
    await staff.page.getByLabel('Tickets suchen').fill(title.toLowerCase());
    // Wait until the list has narrowed to this ticket (its title is unique): a row moving up under the pointer
    // while the results arrive would take the click (this failed once in CI).
    await expect(staff.page.getByRole('link', { name: /^Details zu Ticket/ })).toHaveCount(1);
    await staff.page.getByRole('link', { name: `Details zu Ticket „${title}“` }).click();
    await expect(staff.page).toHaveURL(new RegExp(`/supporter/${ticketId}$`));
    await expect(staff.page.getByRole('complementary', { name: 'Kunde' }).getByText(username, { exact: true })).toBeVisible();
    await expect(staff.page.getByRole('complementary', { name: 'Kunde' }).getByText(server.ip ?? 'x', { exact: true })).toBeVisible();
    await staff.page.getByRole('button', { name: 'Ticket übernehmen' }).click();
    await expect(staff.page.getByText(m.takenOver)).toBeVisible();
    await expect(staff.page.getByText('Sie bearbeiten dieses Ticket.')).toBeVisible();
    // One composer with an explicit mode: "Antwort" is chosen when the page opens.
    const composerMode = staff.page.getByRole('group', { name: 'Art der Nachricht' });
    await expect(composerMode.getByRole('radio', { name: 'Antwort' })).toBeChecked();
    await expect(staff.page.getByRole('region', { name: 'Chat' }).getByRole('textbox')).toHaveCount(1);
    await staff.page.getByLabel('Antwort an den Kunden').fill('Bitte starten Sie den Server neu.');
    await staff.page.getByLabel('Antwort an den Kunden').press('Enter');

    // 3. The customer sees the answer without a reload and replies (Shift+Enter makes a new line).
    const fromStaff = page.getByRole('list', { name: 'Nachrichten' }).locator('li[data-author="staff"]');
    await expect(fromStaff.getByText('Bitte starten Sie den Server neu.')).toBeVisible({ timeout: 10_000 });
    await expect(fromStaff.getByText(SUPPORT_AGENT_LABEL)).toBeVisible();
    await expect(fromStaff.getByText(demoAccount('employee').username)).toHaveCount(0);
    const box = page.getByLabel('Nachricht', { exact: true });
    await box.press('Enter');
    await expect(page.getByRole('list', { name: 'Nachrichten' }).locator('li')).toHaveCount(1);
    await box.fill('Neu gestartet.');
    await box.press('Shift+Enter');
    await box.pressSequentially('Jetzt geht es wieder.');
    await box.press('Enter');
    const mine = page.getByRole('list', { name: 'Nachrichten' }).locator('li[data-author="customer"]');
    await expect(mine).toContainText('Jetzt geht es wieder.');
    const bubble = await mine.locator('div').first().boundingBox();
    expect(bubble!.x + bubble!.width).toBeGreaterThan(DESKTOP.width / 2);
    await expect(box).toHaveValue('');

    // … and with an attachment: an HTML page disguised as an image is refused in German, the real
    // screenshot and a log file upload, and the message shows the preview.
    const chooser = page.locator('input[type=file]');
    await chooser.setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: Buffer.from('<html><script>alert(1)</script></html>') });
    await expect(page.getByRole('list', { name: 'Ausgewählte Dateien' }).getByText(m.attachmentType)).toBeVisible();
    await page.getByRole('button', { name: 'foto.png entfernen' }).click();
    await chooser.setInputFiles([
      { name: 'fehlerbild.png', mimeType: 'image/png', buffer: PNG },
      { name: 'syslog.log', mimeType: 'text/plain', buffer: Buffer.from('12:00:01 eth0: link down\n') },
    ]);
    await expect(page.getByRole('list', { name: 'Ausgewählte Dateien' }).getByText('wird hochgeladen …')).toHaveCount(0);
    await box.fill('Screenshot und Log anbei.');
    await box.press('Enter');
    await expect(mine.getByRole('img', { name: 'Vorschau von fehlerbild.png' })).toBeVisible();
    await expect(mine.getByRole('button', { name: /syslog\.log/ })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Ausgewählte Dateien' })).toHaveCount(0);

    // … and hands over the root password as a confidential field.
    await page.getByRole('button', { name: 'Vertrauliche Angabe hinterlegen' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Vertrauliche Angabe hinterlegen' });
    await secretDialog.getByLabel('Bezeichnung').fill('Root-Passwort');
    await secretDialog.getByLabel('Vertrauliche Angabe', { exact: true }).fill('Kw9#root-PW');
    await secretDialog.getByRole('button', { name: 'Verschlüsselt hinterlegen' }).click();
    await expect(page.getByText(m.secretSaved)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Vertrauliche Angaben' }).getByText('verschlüsselt hinterlegt')).toBeVisible();
    await expect(page.getByText('Kw9#root-PW')).toHaveCount(0);

    // 4. Staff see the reply live and add an internal note the customer never sees.
    await expect(staff.page.getByText('Jetzt geht es wieder.')).toBeVisible({ timeout: 10_000 });
    await expect(staff.page.getByRole('img', { name: 'Vorschau von fehlerbild.png' })).toBeVisible({ timeout: 10_000 });
    const download = staff.page.waitForEvent('download');
    await staff.page.getByRole('button', { name: /syslog\.log/ }).click();
    expect((await download).suggestedFilename()).toBe('syslog.log');
    // The confidential field: shown only on request, and the opening is logged with the name.
    const secrets = staff.page.getByRole('list', { name: 'Vertrauliche Angaben' });
    await expect(secrets.getByText('Root-Passwort')).toBeVisible({ timeout: 10_000 });
    await expect(staff.page.getByText('Kw9#root-PW')).toHaveCount(0);
    await secrets.getByRole('button', { name: 'Anzeigen' }).click();
    await expect(secrets.getByText('Kw9#root-PW')).toBeVisible();
    await expect(secrets.getByText(`Eingesehen von ${demoAccount('employee').username}`)).toBeVisible();
    // The note is a mode of the same composer, chosen with the keyboard here (arrow keys move within
    // the radio group); the box then says who sees it.
    await composerMode.getByRole('radio', { name: 'Antwort' }).focus();
    await staff.page.keyboard.press('ArrowRight');
    await expect(composerMode.getByRole('radio', { name: 'Interne Notiz' })).toBeChecked();
    await expect(staff.page.getByLabel('Antwort an den Kunden')).toBeHidden();
    await staff.page.getByLabel('Interne Notiz – nur für Mitarbeiter sichtbar').fill('NUR-INTERN: Kunde hatte die Firewall zu.');
    await staff.page.getByRole('button', { name: 'Notiz speichern' }).click();
    await expect(staff.page.getByText(m.noteSaved)).toBeVisible();
    await expect(staff.page.locator('li[data-internal="true"]').getByText('NUR-INTERN: Kunde hatte die Firewall zu.')).toBeVisible();
    await checkScreens(staff.page, 'supporter-ticket');

    await page.reload();
    await expect(page.getByText('Jetzt geht es wieder.')).toBeVisible();
    await expect(page.getByText('NUR-INTERN')).toHaveCount(0);
    await checkScreens(page, 'customer-chat');

    // 5. The customer closes the ticket.
    // Closing asks first; the unsent draft is kept for this tab and shown once the ticket is closed.
    await box.fill('Noch ein Nachtrag');
    await page.getByRole('button', { name: 'Ticket schließen' }).click();
    const confirmClose = page.getByRole('dialog', { name: 'Ticket schließen?' });
    await confirmClose.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(confirmClose).toHaveCount(0);
    await page.reload();
    await expect(box).toHaveValue('Noch ein Nachtrag');
    await page.getByRole('button', { name: 'Ticket schließen' }).click();
    await confirmClose.getByRole('button', { name: 'Ticket schließen' }).click();
    await expect(page.getByText(m.closed)).toBeVisible();
    await expect(page.getByText('Dieses Ticket ist geschlossen.')).toBeVisible();
    await expect(page.getByText('Noch ein Nachtrag')).toBeVisible();
    await expect(staff.page.getByText('Geschlossen').first()).toBeVisible({ timeout: 10_000 });
    // Closing wiped the confidential value: staff see it as deleted, live.
    await expect(secrets.getByText('gelöscht')).toBeVisible({ timeout: 10_000 });
    await expect(secrets.getByRole('button', { name: 'Anzeigen' })).toHaveCount(0);

    await page.goto('/dashboard/support');
    await expect(page.getByRole('link', { name: `Details zu Ticket „${title}“` })).toBeVisible();
    await checkScreens(page, 'customer-support-list');

    await staff.page.goto('/dashboard/support-overview');
    await expect(staff.page.getByRole('heading', { level: 1, name: 'Ticket-Übersicht' })).toBeVisible();
    await checkScreens(staff.page, 'staff-overview');
    await staff.page.getByRole('link', { name: 'Meine Tickets' }).last().click();
    await expect(staff.page.getByRole('heading', { level: 1, name: 'Meine Tickets' })).toBeVisible();
    await expect(staff.page.getByRole('link', { name: `Details zu Ticket „${title}“` })).toBeVisible();
    await checkScreens(staff.page, 'staff-my-tickets');
  } finally {
    await staff.context.close();
  }
});

test("another customer's ticket sends the user to /404, and customers are kept out of the staff views", async ({ page, request }) => {
  const headers = await apiAuth(request, 'customer');
  const created = await request.post('/api/tickets', { headers, data: { title: 'Fremdes Ticket', description: 'Nur für den Demo-Kunden.', type: 'question' } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const { username } = await createVerifiedAccount(request, 'fremd');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(`/support/${id}`);
  await expect(page).toHaveURL(/\/404$/);
  await page.goto(`/supporter/${id}`);
  await expect(page).toHaveURL(/\/notfound$/);
  await page.goto('/dashboard/my-tickets');
  await expect(page).toHaveURL(/\/dashboard\/support$/);
});

test('two staff members take over the same ticket at once: one wins, the other gets the German error', async ({ browser, request }) => {
  const headers = await apiAuth(request, 'customer');
  const created = await request.post('/api/tickets', { headers, data: { title: `Doppelt ${unique('t')}`, description: 'Wer übernimmt?', type: 'question' } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const a = await signedIn(browser, 'employee');
  const b = await signedIn(browser, 'owner');
  try {
    await Promise.all([a.page.goto(`/supporter/${id}`), b.page.goto(`/supporter/${id}`)]);
    const buttons = [a.page, b.page].map((p) => p.getByRole('button', { name: 'Ticket übernehmen' }));
    await Promise.all(buttons.map((button) => expect(button).toBeVisible()));
    // Live events are fast: the loser's button may already be gone (the page shows who took the ticket)
    // before its click lands. Both are correct outcomes for the loser: the German error, or the winner's name.
    await Promise.all(buttons.map((button) => button.click({ timeout: 10_000 }).catch(() => {})));
    // The winner's toast may be gone by the time a loaded machine looks; the page itself then says who
    // holds the ticket ("Sie bearbeiten dieses Ticket." for the winner, the winner's name for the loser).
    const mine = 'Sie bearbeiten dieses Ticket.';
    const outcome = async (p: Page, other: string) => {
      await expect(p.getByText(m.takenOver).or(p.getByText(mine)).or(p.getByText(m.alreadyTaken)).or(p.getByText(`Übernommen von ${other}`)).first()).toBeVisible();
      return (await p.getByText(m.takenOver).count()) + (await p.getByText(mine).count()) > 0 ? 'won' : 'lost';
    };
    const employee = demoAccount('employee').username;
    const owner = demoAccount('owner').username;
    expect((await Promise.all([outcome(a.page, owner), outcome(b.page, employee)])).sort()).toEqual(['lost', 'won']);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('staff switch ticket mails off and on again in their profile', async ({ browser }) => {
  const { context, page } = await signedIn(browser, 'owner');
  try {
    await page.goto('/dashboard/profil');
    const card = page.getByRole('heading', { name: 'Ticket-Benachrichtigungen' }).locator('..');
    const box = card.getByRole('checkbox', { name: /E-Mails über neue Tickets/ });
    await expect(box).toBeChecked();
    await box.uncheck();
    await card.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText(m.mailSettingSaved)).toBeVisible();
    await page.reload();
    await expect(box).not.toBeChecked();
    await checkScreens(page, 'staff-profile');
    await box.check();
    await card.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText(m.mailSettingSaved)).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a long chat opens with the newest messages and loads older ones while scrolling up', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { username } = await createVerifiedAccount(request, 'lang');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const customerHeaders = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` };
  const created = await request.post('/api/tickets', { headers: customerHeaders, data: { title: 'Langer Verlauf', description: 'Viele Nachrichten.', type: 'question' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json();
  const staffHeaders = await apiAuth(request, 'employee');
  for (let i = 1; i <= 120; i++) {
    const res = await request.post(`/api/staff/tickets/${id}/messages`, { headers: staffHeaders, data: { body: `Nachricht Nummer ${i}` } });
    expect(res.status()).toBe(201);
  }
  await page.setViewportSize(PHONE);
  await page.goto(`/support/${id}`);
  const items = page.getByRole('list', { name: 'Nachrichten' }).locator('li');
  await expect(page.getByText('Nachricht Nummer 120', { exact: true })).toBeInViewport();
  await expect(items).toHaveCount(50);
  // Scrolling up to the top of the chat loads the next page by itself (no button press).
  await page.mouse.wheel(0, -100_000);
  await expect(items).toHaveCount(100, { timeout: 10_000 });
  await page.mouse.wheel(0, -100_000);
  await expect(items).toHaveCount(120, { timeout: 10_000 });
  await expect(page.getByText('Nachricht Nummer 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ältere Nachrichten laden' })).toHaveCount(0);
});
