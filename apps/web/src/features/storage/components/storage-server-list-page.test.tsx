// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { toast } from 'sonner';
import { spyOnToasts } from '../../../testing/toasts.ts';
import { storageMessages, type StorageServerList } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import StorageServerListPage from './storage-server-list-page.tsx';

/** A signed-in session of this role (the page reads the role from the token's claims). */
const tokenOf = (role: 'owner' | 'employee') => `x.${btoa(JSON.stringify({ role, customerId: 'c1', sub: 'u1' })).replace(/=+$/, '')}.y`;

spyOnToasts();

const list: StorageServerList = {
  overcommit: 1.5,
  items: [{ id: 3, name: 'cloud-fra-01', url: 'https://cloud1.example.com', capacityGb: 10_000, sellableGb: 15_000, allocatedGb: 14_000, accounts: 12, createdAt: '2026-11-01T00:00:00.000Z' }],
};

function renderPage(role: 'owner' | 'employee' = 'owner') {
  setToken(tokenOf(role));
  const calls: { url: string; method: string; body?: unknown }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) as unknown : undefined });
    if (url === '/api/admin/storage-servers' && method === 'GET') return new Response(JSON.stringify(list), { status: 200, headers: { 'content-type': 'application/json' } });
    if (url === '/api/admin/storage-servers' && method === 'POST') {
      return new Response(JSON.stringify({ ...list.items[0], id: 4, name: 'cloud-fra-02', allocatedGb: 0, accounts: 0 }), { status: 201, headers: { 'content-type': 'application/json' } });
    }
    if (url === '/api/admin/storage-servers/3' && method === 'DELETE') {
      return new Response(JSON.stringify({ error: { code: 'CONFLICT', message: storageMessages.serverInUse } }), { status: 409, headers: { 'content-type': 'application/json' } });
    }
    return new Response(null, { status: 404 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><MemoryRouter><StorageServerListPage /></MemoryRouter></QueryClientProvider>);
  return calls;
}

describe('staff: storage servers (issue 23)', () => {
  afterEach(() => {
    clearToken();
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('lists capacity, sellable and allocated space and the accounts of each server', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Speicher-Server' });
    const text = table.textContent?.replace(/\s/g, ' ') ?? '';
    for (const part of ['cloud-fra-01', 'https://cloud1.example.com', '10.000 GB', '15.000 GB', '14.000 GB (93 %)', '12']) expect(text).toContain(part);
    expect(screen.getByText(/Überbuchungsfaktor/).textContent).toContain('1,5');
  });

  it('adds a server with the address normalised by the contract', async () => {
    const calls = renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Speicher-Server hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Speicher-Server hinzufügen' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'cloud-fra-02' } });
    fireEvent.change(within(dialog).getByLabelText('Adresse'), { target: { value: 'https://Cloud2.example.com/' } });
    fireEvent.change(within(dialog).getByLabelText('Kapazität für Kundendateien (GB)'), { target: { value: '2000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Speicher-Server „cloud-fra-02“ wurde eingetragen.'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'cloud-fra-02', url: 'https://cloud2.example.com', capacityGb: 2000, fingerprint: '' });
  });

  it('asks before removing and shows the API\'s refusal while accounts live on the server', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Speicher-Server cloud-fra-01 entfernen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Speicher-Server entfernen?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(storageMessages.serverInUse));
    expect(screen.getByRole('dialog', { name: 'Speicher-Server entfernen?' })).toBeTruthy();
  });

  it('shows employees the servers without "hinzufügen" and "Entfernen": entering one is the owner\'s', async () => {
    renderPage('employee');
    expect(await screen.findByRole('cell', { name: 'cloud-fra-01' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Speicher-Server hinzufügen/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Aktionen' })).toBeNull();
    expect(screen.getByText(/trägt der Inhaber ein/)).toBeTruthy();
  });
});
