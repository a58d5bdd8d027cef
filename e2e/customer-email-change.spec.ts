import { test, expect } from '@playwright/test';
import { customerDetailMessages as dm, emailLinkMessages } from '@hp/contract';
import { createVerifiedAccount, mailFromOutbox, unique } from './support.ts';
import { checkScreens, signedIn } from './screens.ts';

test('staff change a customer\'s e-mail address; it applies only after the new address confirms the link (on a phone)', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { username, email } = await createVerifiedAccount(request, 'mailneu');
  const staff = await signedIn(browser, 'employee');
  try {
    await staff.page.goto('/dashboard/customer-overview');
    await staff.page.getByLabel('Kunden suchen').fill(username);
    // The list narrows to this customer (header and one row) before the click (a row moving under the pointer takes it).
    await expect(staff.page.getByRole('row')).toHaveCount(2);
    await staff.page.getByRole('row').filter({ hasText: username }).getByRole('link', { name: `Details zu ${username}` }).click();
    await staff.page.getByRole('tab', { name: 'Einstellungen' }).click();

    // A mistyped address is refused in German; the current one too.
    const field = staff.page.getByLabel('Neue E-Mail-Adresse');
    await field.fill(email.toUpperCase());
    await staff.page.getByRole('button', { name: 'Bestätigungslink senden' }).click();
    await expect(staff.page.getByText(dm.emailUnchanged)).toBeVisible();

    const newEmail = `${unique('neu')}@example.org`;
    const since = Date.now();
    await field.fill(newEmail);
    await staff.page.getByRole('button', { name: 'Bestätigungslink senden' }).click();
    await expect(staff.page.getByText(dm.emailLinkSent)).toBeVisible();
    await expect(staff.page.getByRole('status').filter({ hasText: 'Wartet auf Bestätigung' })).toContainText(newEmail);
    await expect(staff.page.getByText(`Aktuell: ${email}`)).toBeVisible();
    const log = staff.page.getByRole('list', { name: 'Änderungsprotokoll' });
    await expect(log.getByText(`E-Mail: ${email} → ${newEmail}`)).toBeVisible();
    await checkScreens(staff.page, 'customer-email-pending');

    // The current address hears of the change before it can apply.
    await mailFromOutbox(email, since, /wenn der Link in der Mail an diese Adresse/);

    // The customer opens the link on a phone: opening alone changes nothing, the button does.
    const mail = await mailFromOutbox(newEmail, since, /email-bestaetigen\?id=/);
    const link = mail.match(/https?:\/\/\S+\/email-bestaetigen\?id=[0-9a-f-]{36}&token=[A-Za-z0-9_-]{43}/)![0];
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await phone.newPage();
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: 'Neue E-Mail-Adresse bestätigen' })).toBeVisible();
      await checkScreens(page, 'email-link');
      await page.getByRole('button', { name: 'E-Mail-Adresse bestätigen' }).click();
      await expect(page.getByRole('status')).toHaveText(emailLinkMessages.confirmed);
      // Used once: opening it again says so.
      await page.goto(link);
      await page.getByRole('button', { name: 'E-Mail-Adresse bestätigen' }).click();
      await expect(page.getByText(emailLinkMessages.invalidLink)).toBeVisible();
      // A broken link is refused before any request.
      await page.goto('/email-bestaetigen?id=kaputt');
      await expect(page.getByText(emailLinkMessages.invalidLink)).toBeVisible();
      await expect(page.getByRole('button', { name: 'E-Mail-Adresse bestätigen' })).toBeDisabled();
    } finally {
      await phone.close();
    }

    // The previous address is told; staff see the new address and who confirmed it.
    await mailFromOutbox(email, since, /wurde soeben auf/);
    await staff.page.reload();
    await expect(staff.page.getByText(`Aktuell: ${newEmail}`)).toBeVisible();
    await expect(staff.page.getByText('Wartet auf Bestätigung')).toHaveCount(0);
    await expect(log.getByText('Neue E-Mail-Adresse vom Kunden bestätigt')).toBeVisible();
  } finally {
    await staff.context.close();
  }
});
