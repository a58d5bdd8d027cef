import axe from 'axe-core';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { demoAccount, login } from './support.ts';

/** Phone and desktop sizes every journey checks its screens at. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe-core's rules on the page; serious and critical findings fail. axe is put into the document once
 * and reused (the portal is a single-page app, so one load serves every check of a journey) and runs
 * with axe.run in the page: AxeBuilder injected its 550 kB twice per check and opened a blank page for
 * finishRun, which took half of a long journey's time on two cores (issue 26). The rules and tags are the
 * same; our pages have no frames, which is all runPartial adds.
 */
export async function expectAxeClean(page: Page, name: string) {
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (tags) => {
    const run = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe.run;
    const result = await run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  }, AXE_TAGS);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${name} ${v.id}: ${v.targets.join(', ')}`)).toEqual([]);
}

export async function expectNoSideScroll(page: Page, name: string) {
  const { scrollWidth, width } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scrollWidth, `${name}: ${scrollWidth}px wide at ${width}px`).toBeLessThanOrEqual(width);
}

/**
 * Closes every toast as a user would ("Schließen") instead of waiting the 5 s each stays (issue 26: up to
 * 30 s per journey). Stacked toasts lie over each other, so the close buttons of those behind get the
 * click event directly; the pointer moves away first, since sonner holds toasts while it hovers over them.
 * As many rounds as there are toasts (a busy page may have queued more than the three it shows).
 */
export async function closeToasts(page: Page) {
  const toasts = page.locator('[data-sonner-toast]');
  await page.mouse.move(0, 0);
  for (let i = 0; i < 20 && (await toasts.count()) > 0; i++) {
    await toasts.first().locator('[data-close-button]').dispatchEvent('click', undefined, { timeout: 2_000 }).catch(() => { /* it left by itself meanwhile */ });
  }
  await expect(toasts).toHaveCount(0, { timeout: 15_000 });
}

/** Axe and width at phone and desktop size, with a screenshot of each for the record. */
export async function checkScreens(page: Page, name: string) {
  // A toast fading in or out is measured half-transparent; the toasts themselves are checked elsewhere.
  await closeToasts(page);
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await expectNoSideScroll(page, `${name} @${size.width}`);
    await expectAxeClean(page, `${name} @${size.width}`);
    await page.screenshot({ path: test.info().outputPath(`${name}-${size.width}.png`), fullPage: true });
  }
}

/** A demo staff account signed in, in its own browser context at desktop size. */
export async function signedIn(browser: Browser, role: 'employee' | 'owner' | 'customer') {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const account = demoAccount(role);
  await login(page, account.username, account.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page };
}
