import { test, expect, type Page } from '@playwright/test';
import { ticketPresenceText } from '@hp/contract';
import { apiAuth, demoAccount, unique } from './support.ts';
import { DESKTOP, expectNoSideScroll, PHONE, signedIn, recordScreenshot } from './screens.ts';

test('two staff members in one ticket see each other viewing and typing; the warning never blocks', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const headers = await apiAuth(request, 'customer');
  const created = await request.post('/api/tickets', { headers, data: { title: `Gleichzeitig ${unique('t')}`, description: 'Wer antwortet?', type: 'question' } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const owner = demoAccount('owner').username;
  const employee = demoAccount('employee').username;

  const a = await signedIn(browser, 'owner');
  const b = await signedIn(browser, 'employee');
  try {
    // A's timers run on a clock the journey can stop (below); until then it runs like the real one.
    await a.page.clock.install();
    await Promise.all([a.page.goto(`/supporter/${id}`), b.page.goto(`/supporter/${id}`)]);
    const bannerOf = (p: Page) => p.getByRole('list', { name: 'Weitere Mitarbeiter in diesem Ticket' });

    // Both are there; each sees only the other.
    await expect(bannerOf(b.page)).toHaveText(ticketPresenceText({ name: owner, typing: false }));
    await expect(bannerOf(a.page)).toHaveText(ticketPresenceText({ name: employee, typing: false }));

    // A types an answer: B sees it live, and can still do everything (nothing is disabled).
    const answerA = a.page.getByLabel('Antwort an den Kunden');
    await answerA.pressSequentially('Ich schaue mir das an');
    await expect(bannerOf(b.page)).toHaveText(ticketPresenceText({ name: owner, typing: true }));
    const answerB = b.page.getByLabel('Antwort an den Kunden');
    await expect(answerB).toBeEditable();
    await expect(b.page.getByRole('button', { name: 'Ticket übernehmen' })).toBeEnabled();
    await expect(b.page.getByLabel('Status', { exact: true })).toBeEnabled();
    await answerB.fill('Ich auch.');
    await expect(b.page.getByRole('button', { name: 'Senden' })).toBeEnabled();

    for (const size of [PHONE, DESKTOP]) {
      await b.page.setViewportSize(size);
      await expectNoSideScroll(b.page, `supporter-presence @${size.width}`);
      await recordScreenshot(b.page, test.info().outputPath(`supporter-presence-${size.width}.png`), true);
    }

    // Sending ends typing at once, not 4 s after the last keystroke (TYPING_IDLE_MS in the web app). With A's clock
    // stopped, the idle timer cannot fire, so A's heartbeat saying "no longer typing" can only come from the send.
    // B's banner may then take as long as a loaded machine needs (a 3-s deadline on it failed under load).
    await answerA.pressSequentially(' und melde mich.');
    await expect(bannerOf(b.page)).toHaveText(ticketPresenceText({ name: owner, typing: true }));
    // The clock stops a little ahead of now (it only moves forward); timers due until then fire first.
    await a.page.clock.pauseAt((await a.page.evaluate(() => Date.now())) + 5_000);
    // Typing again after the stop: A is typing now even if the idle timer ran out before the clock stopped.
    await answerA.press('Backspace');
    await answerA.press('.');
    const stoppedTyping = a.page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/staff/tickets/${id}/presence`) && (r.postDataJSON() as { typing?: boolean }).typing === false, { timeout: 15_000 });
    await answerA.press('Enter');
    await stoppedTyping;
    await a.page.clock.resume();
    await expect(bannerOf(b.page)).toHaveText(ticketPresenceText({ name: owner, typing: false }));
    await expect(b.page.getByRole('list', { name: 'Nachrichten' }).getByText('Ich schaue mir das an und melde mich.')).toBeVisible();

    // A leaves the ticket: B's warning disappears without a reload.
    await a.page.goto('/dashboard');
    await expect(bannerOf(b.page)).toHaveCount(0);
    await expect(b.page.getByRole('status').filter({ hasText: owner })).toHaveCount(0);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
