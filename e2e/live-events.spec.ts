import { test, expect } from '@playwright/test';
import { apiAuth, createServerFor, demoAccount, login } from './support.ts';

test('the open server page shows a stop made elsewhere without reload, and no longer polls the status every 2 s', async ({ page, request }) => {
  test.setTimeout(150_000);
  const customer = demoAccount('customer');
  const server = await createServerFor(request, customer.username);

  const statusRequests: number[] = [];
  let streams = 0;
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname === `/api/servers/${server.id}/status`) statusRequests.push(Date.now());
    if (pathname === '/api/events') streams++;
  });
  await login(page, customer.username, customer.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The dashboard opens the tab's stream; the page load below replaces it with one of its own.
  await expect.poll(() => streams).toBe(1);
  await page.goto(`/dashboard/linux/${server.id}`);
  // Provisioning ends while the page is open: only a live event (or the slow fallback) can show it.
  const header = page.getByRole('main').locator('header');
  await expect(header.getByText('Online')).toBeVisible({ timeout: 90_000 });
  await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });

  // Nothing changes for 8 s: the old 2-s poll would ask 4 times, the usage refresh (15 s) at most once.
  await page.waitForTimeout(1_000);
  const quietFrom = Date.now();
  await page.waitForTimeout(8_000);
  expect(statusRequests.filter((t) => t >= quietFrom).length).toBeLessThanOrEqual(1);

  // The customer stops the server from somewhere else (another device, the API).
  const auth = await apiAuth(request, 'customer');
  const stop = await request.post(`/api/servers/${server.id}/power`, { headers: auth, data: { action: 'stop' } });
  expect(stop.status(), await stop.text()).toBe(202);
  // A simulated stop settles within about 2 s; the 15-s usage refresh could not reliably show it this fast.
  await expect(header.getByText('Offline')).toBeVisible({ timeout: 10_000 });
  expect(streams, 'one event stream for the page, no reconnects').toBe(2);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // Between events the page stays quiet again.
  const settledFrom = Date.now() + 1_000;
  await page.waitForTimeout(7_000);
  expect(statusRequests.filter((t) => t >= settledFrom).length).toBeLessThanOrEqual(1);
});
