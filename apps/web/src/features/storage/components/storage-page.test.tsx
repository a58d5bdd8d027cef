// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { GIB, storageMessages, type StorageDetail } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import StoragePage from './storage-page.tsx';

const ID = '0b8c5f7e-2a4d-4c1e-9f3a-6d2e1c0b9a87';
const detail: StorageDetail = {
  id: ID, number: 4711, accountName: 'mueller', plan: '500gb', planName: '500 GB', quotaBytes: 500 * GIB, status: 'active', statusMessage: null,
  expiresAt: '2027-01-15T00:00:00.000Z', usedBytes: Math.round(123.4 * GIB), webUrl: 'https://cloud1.example.com/login',
  webdavUrl: 'https://cloud1.example.com/remote.php/dav/files/mueller/', serverUrl: 'https://cloud1.example.com', liveError: null,
  renewPath: `/shop/cloud-storage?renew=${ID}`, graceDays: 14,
};
const PASSWORD = 'Xq7-vT2m-Lp9w-Rk4z';

function renderPage(shown: StorageDetail = detail) {
  const calls: { url: string; method: string }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET' });
    if (url === `/api/storage/${ID}`) return new Response(JSON.stringify(shown), { status: 200, headers: { 'content-type': 'application/json' } });
    if (url === `/api/storage/${ID}/password` && init?.method === 'POST') {
      return new Response(JSON.stringify({ password: PASSWORD, message: storageMessages.passwordSet }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/dashboard/cloud-storage/${ID}`]}>
        <Routes><Route path="/dashboard/cloud-storage/:storageId" element={<StoragePage />} /></Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

describe('cloud storage account page (issue 23)', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows the usage as a labelled bar with "x GB von y GB belegt"', async () => {
    renderPage();
    const bar = await screen.findByRole('progressbar', { name: 'Belegter Speicher' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(bar.getAttribute('aria-valuetext')).toBe('123,4 GB von 500 GB belegt (25 %)');
    expect(screen.getByText('123,4 GB von 500 GB belegt')).toBeTruthy();
  });

  it('gives the access data: web address as a link, WebDAV address and user name to copy, and the renewal link', async () => {
    renderPage();
    const web = await screen.findByRole('link', { name: /https:\/\/cloud1\.example\.com\/login/ });
    expect(web.getAttribute('href')).toBe(detail.webUrl);
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('button', { name: 'WebDAV-Adresse (Netzlaufwerk) kopieren' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Benutzername kopieren' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Tarif wechseln \/ verlängern/ }).getAttribute('href')).toBe(`/shop/cloud-storage?renew=${ID}`);
  });

  it('asks before setting a new password, then shows it once with a copy button and the warning that it is not mailed', async () => {
    const calls = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: /Neues Passwort setzen/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Neues Passwort setzen?' });
    expect(dialog.textContent).toContain('Das bisherige Passwort gilt danach nicht mehr');
    expect(calls.some((c) => c.url.endsWith('/password'))).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Neues Passwort setzen' }));
    expect((await screen.findByLabelText('Neues Passwort')).textContent).toBe(PASSWORD);
    expect(screen.getByText(storageMessages.passwordSet)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Passwort kopieren' })).toBeTruthy();
    expect(calls.filter((c) => c.url.endsWith('/password')).map((c) => c.method)).toEqual(['POST']);

    fireEvent.click(screen.getByRole('button', { name: 'Passwort ausblenden' }));
    await waitFor(() => expect(screen.queryByText(PASSWORD)).toBeNull());
    expect(screen.getByRole('button', { name: /Neues Passwort setzen/ })).toBeTruthy();
  });

  it('warns on a suspended account that the files are deleted the grace days after the expiry date', async () => {
    renderPage({ ...detail, status: 'suspended', statusMessage: null });
    const warning = await screen.findByText(/werden das Konto und alle Dateien 14 Tage nach dem Laufzeitende/);
    expect(warning.textContent).toContain('(15.01.2027)');
    expect(warning.textContent).toContain('am 29.01.2027');
    expect((screen.getByRole('button', { name: /Neues Passwort setzen/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a live error as a notice and still the rest of the page', async () => {
    renderPage({ ...detail, usedBytes: null, liveError: storageMessages.unavailable });
    expect(await screen.findByText(storageMessages.unavailable)).toBeTruthy();
    expect(screen.getByText(/Die Belegung kann gerade nicht abgefragt werden/)).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getAllByText(detail.webdavUrl).length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'So greifen Sie auf Ihre Dateien zu' })).toBeTruthy();
  });
});
