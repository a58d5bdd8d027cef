import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const dataDir = () => process.env.E2E_DATA_DIR!;

export interface DemoAccount { role: 'owner' | 'employee' | 'customer'; username: string; password: string }
export function demoAccount(role: DemoAccount['role']): DemoAccount {
  const list = JSON.parse(fs.readFileSync(path.join(dataDir(), 'demo-credentials.json'), 'utf8')) as DemoAccount[];
  return list.find((a) => a.role === role)!;
}

/** Decodes quoted-printable soft breaks and escapes well enough to read a code from an .eml file. */
function decodeQuotedPrintable(raw: string) {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Waits for a new mail to `to` in the outbox and returns the 4-character code in it. */
export async function codeFromOutbox(to: string, since: number): Promise<string> {
  const text = await mailFromOutbox(to, since, /lautet: [A-Z0-9]{4}/);
  return text.match(/lautet: ([A-Z0-9]{4})/)![1]!;
}

/** Waits for a mail to `to` whose text matches `pattern` in the outbox and returns its decoded text. */
export async function mailFromOutbox(to: string, since: number, pattern: RegExp): Promise<string> {
  const dir = path.join(dataDir(), 'outbox');
  let found: string | undefined;
  await expect.poll(() => {
    if (!fs.existsSync(dir)) return undefined;
    const files = fs.readdirSync(dir).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).mtimeMs >= since - 5).sort();
    for (const file of files.reverse()) {
      const text = decodeQuotedPrintable(fs.readFileSync(file, 'utf8'));
      if (new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(text) && pattern.test(text)) return (found = text);
    }
    return undefined;
  }, { timeout: 15_000, message: `Mail an ${to}` }).toBeTruthy();
  return found!;
}

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
export const PASSWORD = 'Sicher!Passwort1';

export async function login(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Benutzername').fill(username);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

/** Types a code into the box row by pasting it into the first box (the boxes spread pasted text). */
export async function pasteCode(page: Page, label: string, code: string) {
  const first = page.getByLabel(`${label}: Zeichen 1 von`, { exact: false });
  await first.focus();
  await page.evaluate(async (text) => {
    const el = document.activeElement as HTMLInputElement;
    const data = new DataTransfer();
    data.setData('text', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, code);
}

/**
 * A client address of its own for every API registration. Registration is limited to 20 per address
 * and hour; the journeys register more accounts than that, so each one comes from a different
 * (private-range) client, forwarded through the trusted proxy the test server is told about.
 */
export const distinctClient = () => ({ 'x-forwarded-for': `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });

/** A fresh verified account created through the public API (registration + code from the outbox). */
export async function createVerifiedAccount(request: APIRequestContext, prefix = 'e2e') {
  const username = unique(prefix);
  const email = `${username}@example.com`;
  const since = Date.now();
  const headers = distinctClient();
  const reg = await request.post('/api/auth/register', { headers, data: { username, email, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(reg.status()).toBe(201);
  const { userId } = await reg.json();
  const code = await codeFromOutbox(email, since);
  expect((await request.post('/api/auth/verify-email', { headers, data: { userId, code } })).status()).toBe(200);
  return { username, email };
}

/** Signs a demo account in through the API and returns the authorisation header. */
export async function apiAuth(request: APIRequestContext, role: DemoAccount['role']) {
  const account = demoAccount(role);
  const res = await request.post('/api/auth/login', { data: { username: account.username, password: account.password } });
  expect(res.status()).toBe(200);
  const { token } = await res.json();
  return { authorization: `Bearer ${token}` };
}

/** A server for `username`, created by staff through the API (the staff dialog has its own journey). */
export async function createServerFor(request: APIRequestContext, username: string) {
  const headers = await apiAuth(request, 'employee');
  const customers = await (await request.get(`/api/admin/customers?search=${encodeURIComponent(username)}`, { headers })).json();
  const owner = customers.items.find((c: { username: string }) => c.username === username).customerNumber;
  const nodes = await (await request.get('/api/admin/nodes', { headers })).json();
  const created = await request.post('/api/admin/servers', { headers, data: { cpuCores: 1, ramGb: 2, storageGb: 25, os: 'Debian 12', owner, nodeId: nodes.items[0].id, reason: 'Testserver der Browser-Journeys' } });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: string; vmid: number; ip: string | null };
}

/** Fills the simulated provider's hosted card page (server-rendered, not part of the SPA). */
export async function payWithCard(page: Page, card: string) {
  await expect(page).toHaveURL(/\/pay\/sim\/cs_sim_[0-9a-f]{32}$/);
  await page.getByLabel('Kartennummer').fill(card);
  await page.getByLabel('Gültig bis (MM/JJ)').fill('12/39');
  await page.getByLabel('Prüfziffer (CVC)').fill('123');
  await page.getByLabel('Name auf der Karte').fill('Erika Mustermann');
  await page.getByLabel('Straße und Hausnummer').fill('Musterstraße 1');
  await page.getByLabel('PLZ').fill('60311');
  await page.getByLabel('Ort').fill('Frankfurt am Main');
  await expect(page.getByLabel('Land')).toHaveValue('DE');
  await page.getByRole('button', { name: /^Bezahlen/ }).click();
}
