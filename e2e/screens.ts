import axe from 'axe-core';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
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
  let serious = await seriousViolations(page);
  // A toast that arrives while axe runs (a live event, say) is measured half-transparent in its fade-in.
  // Such a finding is not a verdict yet: once every transition has finished the page is checked again, toasts
  // included, so a toast that really lacks contrast still fails.
  if (serious.some((v) => v.inToast)) {
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    serious = await seriousViolations(page);
  }
  expect(serious.map((v) => `${name} ${v.id}: ${v.targets.join(', ')}`)).toEqual([]);
}

async function seriousViolations(page: Page) {
  const violations = await page.evaluate(async (tags) => {
    const run = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[]; element?: Element }[] }[] }> } }).axe.run;
    // elementRef: the node itself, so a toast that has left the page by the time the check reads the result is
    // still recognised (its selector would find nothing any more, and the finding would count as final).
    const result = await run(document, { runOnly: { type: 'tag', values: tags }, elementRef: true });
    const inToast = (element: Element | undefined) => Boolean(element?.closest('[data-sonner-toast]'));
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.map(String).join(' ')), inToast: v.nodes.some((n) => inToast(n.element)) }));
  }, AXE_TAGS);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function expectNoSideScroll(page: Page, name: string) {
  const { scrollWidth, width } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scrollWidth, `${name}: ${scrollWidth}px wide at ${width}px`).toBeLessThanOrEqual(width);
}

/**
 * Closes every toast as a user would ("Schließen") instead of waiting the 5 s each stays (issue 26: up to
 * 30 s per journey). Stacked toasts lie over each other, so the close buttons of those behind get the
 * click event directly; the pointer moves away first, since sonner holds toasts while it hovers over them.
 * One round clicks every close button in the page at once; a busy page may have queued more toasts than
 * the three it shows, so rounds repeat until none is left. (Clicking them one by one through locators waited
 * up to 2 s for each toast that had left by itself meanwhile.)
 */
export async function closeToasts(page: Page) {
  const toasts = page.locator('[data-sonner-toast]');
  await page.mouse.move(0, 0);
  await expect(async () => {
    await page.evaluate(() => document.querySelectorAll<HTMLButtonElement>('[data-sonner-toast] [data-close-button]').forEach((b) => b.click()));
    await expect(toasts).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000, intervals: [0] });
}

/**
 * A screenshot for the record, for people to look at. Left out in CI (its clean clone is thrown away and
 * nobody looks into it) or with E2E_SCREENSHOTS=0; E2E_SCREENSHOTS=1 takes them in CI too. Full-page PNGs took about 130 ms each.
 */
export async function recordScreenshot(target: Page | Locator, file: string, fullPage = false) {
  if ((process.env.E2E_SCREENSHOTS ?? (process.env.CI ? '0' : '1')) === '0') return;
  await target.screenshot({ path: file, ...(fullPage ? { fullPage } : {}) });
}

/** Two frames after a resize: the layout, media queries and what React renders from them have settled. */
export async function settleLayout(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
}

/** Axe and width at phone and desktop size, with a screenshot of each for the record. */
export async function checkScreens(page: Page, name: string) {
  // A toast fading in or out is measured half-transparent; the toasts themselves are checked elsewhere.
  await closeToasts(page);
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await settleLayout(page);
    await expectNoSideScroll(page, `${name} @${size.width}`);
    await expectAxeClean(page, `${name} @${size.width}`);
    await recordScreenshot(page, test.info().outputPath(`${name}-${size.width}.png`), true);
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
