import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { demoAccount, login } from './support.ts';

/** Phone and desktop sizes every journey checks its screens at. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export async function expectAxeClean(page: Page, name: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${name} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export async function expectNoSideScroll(page: Page, name: string) {
  const { scrollWidth, width } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scrollWidth, `${name}: ${scrollWidth}px wide at ${width}px`).toBeLessThanOrEqual(width);
}

/** Axe and width at phone and desktop size, with a screenshot of each for the record. */
export async function checkScreens(page: Page, name: string) {
  // A toast fading in or out is measured half-transparent; the toasts themselves are checked elsewhere.
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
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
