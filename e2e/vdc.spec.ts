import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { formatEuro, shopMessages, VDC_ISO_MIN_BYTES, VDC_LIMITS, vdcPriceCents } from '@hp/contract';
import { checkScreens, closeToasts, DESKTOP, expectAxeClean, expectNoSideScroll, PHONE, recordScreenshot } from './screens.ts';
import { createVerifiedAccount, login, PASSWORD, payWithCard, unique } from './support.ts';

/**
 * Virtual data center (issue 25): a new customer buys the smallest pool, creates two VMs inside it,
 * uploads an ISO and boots one VM from it, joins both to the private network, is refused in German when
 * a VM would exceed the pool (by the dialog, and by the server when another session took the rest
 * meanwhile), deletes a VM to see its resources free again, and creates one that is in the private network
 * from the start. Once at 1280 px and once at 390 px,
 * each with its own customer; axe clean on the shop and the VDC page.
 */

const SMALLEST = { cpu: VDC_LIMITS.cpu.min, ram: VDC_LIMITS.ram.min, storage: VDC_LIMITS.storage.min, ipv4: VDC_LIMITS.ipv4.min };
const NETWORK = '10.20.0.0/24';
const ISO_NAME = 'rettung.iso';

/**
 * The smallest valid ISO 9660 image (ECMA-119): 16 sectors of system area, the primary volume descriptor
 * (type 1, "CD001", version 1) and the set terminator (type 255). The browser and the server both look
 * for the signature at 0x8001 and need at least VDC_ISO_MIN_BYTES.
 */
function smallIso(): Buffer {
  const sector = 2048;
  const image = Buffer.alloc(Math.max(VDC_ISO_MIN_BYTES, 18 * sector));
  image[16 * sector] = 1;
  image.write('CD001', 16 * sector + 1, 'ascii');
  image[16 * sector + 6] = 1;
  image[17 * sector] = 255;
  image.write('CD001', 17 * sector + 1, 'ascii');
  image[17 * sector + 6] = 1;
  return image;
}

/** Screens of the phone journey: at its own width only (the desktop journey checks both sizes). */
async function checkPhoneScreen(page: Page, name: string) {
  await closeToasts(page);
  await expectNoSideScroll(page, `${name} @390`);
  await expectAxeClean(page, `${name} @390`);
  await recordScreenshot(page, test.info().outputPath(`${name}-390.png`), true);
}

async function journey(page: Page, request: APIRequestContext, size: typeof DESKTOP) {
  const phone = size.width === PHONE.width;
  const screens = async (name: string) => {
    if (phone) return checkPhoneScreen(page, name);
    await checkScreens(page, name);
    await page.setViewportSize(size);
  };
  await page.setViewportSize(size);
  const { username } = await createVerifiedAccount(request, 'vdc');
  await login(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Kein Virtual Data Center')).toBeVisible();

  // ── 1. The configurator at its smallest pool, checkout, the simulated payment page ──
  await page.getByRole('link', { name: 'Virtual Data Center bestellen' }).first().click();
  await expect(page).toHaveURL(/\/shop\/vdc-request$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Virtual Data Center bestellen' })).toBeVisible();
  for (const [label, value] of [['vCPU-Kerne', SMALLEST.cpu], ['Arbeitsspeicher (GB)', SMALLEST.ram], ['Speicher (GB)', SMALLEST.storage], ['Öffentliche IPv4-Adressen', SMALLEST.ipv4]] as const) {
    await expect(page.getByRole('slider', { name: label, exact: true })).toHaveValue(String(value));
    await expect(page.getByRole('button', { name: `${label} verringern`, exact: true })).toBeDisabled();
  }
  // One step up and back down: the price follows the sliders.
  const total = page.getByTestId('vdc-total');
  await expect(total).toHaveText(formatEuro(vdcPriceCents({ ...SMALLEST, months: 1 })));
  await page.getByRole('button', { name: 'vCPU-Kerne erhöhen' }).click();
  await expect(total).toHaveText(formatEuro(vdcPriceCents({ ...SMALLEST, cpu: SMALLEST.cpu + VDC_LIMITS.cpu.step, months: 1 })));
  await page.getByRole('button', { name: 'vCPU-Kerne verringern' }).click();
  await expect(total).toHaveText(formatEuro(vdcPriceCents({ ...SMALLEST, months: 1 })));
  const name = unique('Journey ');
  await page.getByLabel('Name des Virtual Data Centers (optional)').fill(name);
  await page.getByLabel(/Ich akzeptiere die/).check();
  await screens('vdc-shop');
  await page.getByRole('button', { name: 'Zur Kasse' }).click();

  await payWithCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { level: 1, name: shopMessages.paymentSuccess })).toBeVisible({ timeout: 40_000 });
  await page.getByRole('link', { name: 'Zum Virtual Data Center' }).click();

  await expect(page).toHaveURL(/\/dashboard\/vdc\/[0-9a-f-]{36}$/);
  const vdcId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Aktiv', { exact: true }).first()).toBeVisible({ timeout: 60_000 });
  const bar = (label: string) => page.getByRole('progressbar', { name: label, exact: true });
  await expect(bar('vCPU')).toHaveAttribute('aria-valuetext', /^0 von 4 Kernen belegt/);
  await expect(bar('IPv4')).toHaveAttribute('aria-valuetext', /^0 von 1 Adresse vergeben/);

  // ── 2. Two VMs; each is online as the list shows it ──
  const vmTable = page.getByRole('table', { name: 'VMs' });
  const vmRow = (vm: string) => vmTable.locator('tbody tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${vm}$`) }) });
  const createButton = page.getByRole('button', { name: 'VM erstellen' });
  const createVm = async (vm: string, resources: { cpu?: number } = {}) => {
    await createButton.click();
    const dialog = page.getByRole('dialog', { name: 'VM erstellen' });
    await dialog.getByLabel('Name', { exact: true }).fill(vm);
    if (resources.cpu) await dialog.getByLabel('vCPU (Kerne)').fill(String(resources.cpu));
    await dialog.getByRole('button', { name: 'VM erstellen' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(vmRow(vm)).toContainText('Online', { timeout: 60_000 });
  };
  // The first takes the pool's address (the dialog's defaults: 2 cores, 2 GB, 20 GB, public IPv4).
  await createVm('web-1');
  await expect(vmRow('web-1')).toContainText('2 Kerne · 2 GB RAM · 20 GB');
  await createVm('db-1', { cpu: 1 });
  await expect(vmRow('db-1')).toContainText('1 Kern · 2 GB RAM · 20 GB');
  const poolIp = page.getByRole('list', { name: 'IPv4-Adressen' }).getByRole('listitem');
  await expect(poolIp.getByRole('combobox')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(bar('vCPU')).toHaveAttribute('aria-valuetext', /^3 von 4 Kernen belegt .*frei: 1 Kern$/);
  await expect(bar('RAM')).toHaveAttribute('aria-valuetext', /^4 von 8 GB belegt/);
  await expect(bar('Speicher')).toHaveAttribute('aria-valuetext', /^40 von 100 GB belegt/);
  await expect(bar('IPv4')).toHaveAttribute('aria-valuetext', /^1 von 1 Adresse vergeben/);

  // ── 3. An ISO uploaded into the library, then put into web-1's drive to boot from ──
  await page.getByLabel('ISO-Datei auswählen').setInputFiles({ name: ISO_NAME, mimeType: 'application/x-iso9660-image', buffer: smallIso() });
  const isoRow = page.getByRole('table', { name: 'ISO-Images' }).locator('tbody tr').filter({ hasText: ISO_NAME });
  await expect(isoRow).toContainText('Bereit', { timeout: 30_000 });
  await expect(isoRow).toContainText(`${VDC_ISO_MIN_BYTES / 1024} KB`);
  await page.getByLabel('ISO-Laufwerk von web-1').selectOption({ label: ISO_NAME });
  await expect(page.getByText('Das Image liegt im Laufwerk von web-1; die VM startet davon.')).toBeVisible();
  await expect(isoRow.getByRole('cell').nth(2)).toHaveText('web-1');
  await expect(page.getByLabel('ISO-Laufwerk von db-1')).toHaveValue('');
  // The drive's select stays inside its row (on a phone the rows stack as cards).
  const rowBox = (await vmRow('web-1').boundingBox())!;
  const selectBox = (await page.getByLabel('ISO-Laufwerk von web-1').boundingBox())!;
  expect(selectBox.x + selectBox.width, 'ISO-Laufwerk ends right of its row').toBeLessThanOrEqual(rowBox.x + rowBox.width + 0.5);
  // An image in a drive cannot be deleted.
  await expect(isoRow.getByRole('button', { name: `${ISO_NAME} löschen` })).toBeDisabled();

  // ── 4. The private network's range, then both VMs join it ──
  await page.getByLabel('Adressbereich (privat, CIDR)').fill('8.8.8.0/24');
  await page.getByRole('button', { name: 'Netzwerk einrichten' }).click();
  await expect(page.getByText(/Bitte geben Sie ein privates Netz an/)).toBeVisible();
  await page.getByLabel('Adressbereich (privat, CIDR)').fill(NETWORK);
  await page.getByRole('button', { name: 'Netzwerk einrichten' }).click();
  const network = page.getByRole('region', { name: 'Privates Netzwerk' });
  await expect(network).toContainText(`Adressbereich: ${NETWORK} · 0 VMs verbunden`, { timeout: 30_000 });
  for (const [vm, address] of [['web-1', '10.20.0.2'], ['db-1', '10.20.0.3']] as const) {
    const toggle = page.getByRole('switch', { name: `${vm} mit dem privaten Netzwerk verbinden` });
    await expect(toggle).toBeEnabled();
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect(vmRow(vm)).toContainText(address);
  }
  await expect(network).toContainText('2 VMs verbunden');
  // With members the range stays as it is.
  await expect(page.getByLabel('Neuer Adressbereich')).toHaveCount(0);
  await screens('vdc-page');

  // ── 5. More than the pool has free: the dialog says so, and the server when another session was quicker ──
  await createButton.click();
  const dialog = page.getByRole('dialog', { name: 'VM erstellen' });
  await dialog.getByLabel('Name', { exact: true }).fill('gross');
  await dialog.getByLabel('vCPU (Kerne)').fill('2');
  await dialog.getByRole('button', { name: 'VM erstellen' }).click();
  await expect(dialog.getByText('vCPU: höchstens 1 Kern (so viel ist im Pool frei).')).toBeVisible();
  await screens('vdc-vm-refused');
  await dialog.getByLabel('vCPU (Kerne)').fill('1');
  await dialog.getByLabel('RAM (GB)').fill('1');
  await dialog.getByLabel('Festplatte (GB)').fill('10');
  // Meanwhile another session of the same customer takes the last core.
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const other = await page.request.post(`/api/vdcs/${vdcId}/vms`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'dazwischen', cpuCores: 1, ramGb: 1, diskGb: 10, os: 'Debian 12', publicIpv4: false },
  });
  expect(other.status(), await other.text()).toBe(201);
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/vdcs/${vdcId}/vms`));
  await dialog.getByRole('button', { name: 'VM erstellen' }).click();
  const refusal = await answer;
  expect(refusal.status()).toBe(409);
  expect((await refusal.json()).error.code).toBe('VDC_POOL_EXHAUSTED');
  await expect(dialog.getByText('Im Pool sind nur noch 0 vCPU frei; diese VM braucht 1.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(vmRow('dazwischen')).toContainText('Online', { timeout: 60_000 });
  await expect(bar('vCPU')).toHaveAttribute('aria-valuetext', /^4 von 4 Kernen belegt/);
  await expect(createButton).toBeDisabled();
  await expect(page.getByText(/Für eine weitere VM fehlt freier vCPU\./)).toBeVisible();

  // ── 6. Deleting db-1 (asked first) frees its core, RAM, disk and private address ──
  await vmRow('db-1').getByRole('button', { name: 'db-1 löschen' }).click();
  const confirm = page.getByRole('dialog', { name: 'VM db-1 löschen?' });
  await expect(confirm).toContainText('Im Pool werden 1 Kern, 2 GB RAM, 20 GB Speicher frei.');
  await confirm.getByRole('button', { name: 'VM löschen' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByText('Die VM db-1 wird gelöscht.')).toBeVisible();
  await expect(vmRow('db-1')).toHaveCount(0);
  await expect(bar('vCPU')).toHaveAttribute('aria-valuetext', /^3 von 4 Kernen belegt .*frei: 1 Kern$/);
  await expect(bar('RAM')).toHaveAttribute('aria-valuetext', /^3 von 8 GB belegt .*frei: 5 GB$/);
  await expect(bar('Speicher')).toHaveAttribute('aria-valuetext', /^30 von 100 GB belegt .*frei: 70 GB$/);
  await expect(bar('VMs')).toHaveAttribute('aria-valuetext', /^2 von höchstens 20 VMs/);
  await expect(network).toContainText('1 VM verbunden');
  await expect(createButton).toBeEnabled();
  await screens('vdc-page-after-delete');

  // ── 7. A VM created with "Mit dem privaten Netzwerk verbinden" (ticked by default) is in the network at once ──
  await createVm('app-1');
  await expect(page.getByRole('switch', { name: 'app-1 mit dem privaten Netzwerk verbinden' })).toBeChecked();
  await expect(vmRow('app-1')).toContainText(/10\.20\.0\.[34]/);
  await expect(network).toContainText('2 VMs verbunden');
  await screens('vdc-page-vm-in-network');

  // "Meine Produkte" shows the pool with its use.
  await page.goto('/dashboard');
  const card = page.getByRole('list', { name: 'Virtual Data Center' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(name);
  await expect(card).toContainText('vCPU: 4 von 4 Kernen belegt');
  await expect(card).toContainText('3 VMs');
  if (phone) await expectNoSideScroll(page, 'Meine Produkte mit VDC @390');
}

test('a customer buys a small virtual data center at 1280 px: two VMs, an ISO to boot from, the private network, the pool refusing, a VM deleted', async ({ page, request }) => {
  test.setTimeout(300_000);
  await journey(page, request, DESKTOP);
});

test('a customer buys a small virtual data center on a 390 px phone: two VMs, an ISO to boot from, the private network, the pool refusing, a VM deleted', async ({ page, request }) => {
  test.setTimeout(300_000);
  await journey(page, request, PHONE);
});
