// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { GIB, type StorageList } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { StorageSection } from './storage-section.tsx';

const list: StorageList = {
  items: [
    { id: 'a1', number: 4711, accountName: 'mueller', plan: '1tb', planName: '1 TB', quotaBytes: 1024 * GIB, status: 'active', statusMessage: null, expiresAt: '2027-01-15T00:00:00.000Z' },
    { id: 'b2', number: 4712, accountName: 'neu', plan: '100gb', planName: '100 GB', quotaBytes: 100 * GIB, status: 'provisioning', statusMessage: null, expiresAt: null },
  ],
};

describe('"Meine Produkte": cloud storage section', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows a card per account with plan, status and expiry, linking to its page; one being set up cannot be renewed yet', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(list), { status: 200, headers: { 'content-type': 'application/json' } })));
    render(<QueryClientProvider client={new QueryClient()}><MemoryRouter><StorageSection /></MemoryRouter></QueryClientProvider>);
    const cards = within(await screen.findByRole('list', { name: 'Cloud-Speicher' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [active, setup] = cards as [HTMLElement, HTMLElement];
    expect(within(active).getByRole('heading', { name: 'mueller' })).toBeTruthy();
    expect(active.textContent).toContain('Tarif 1 TB');
    expect(active.textContent).toContain('Läuft bis 15.01.2027');
    expect(within(active).getByText('Aktiv')).toBeTruthy();
    expect(within(active).getByRole('link', { name: 'Cloud-Speicher mueller verwalten' }).getAttribute('href')).toBe('/dashboard/cloud-storage/a1');
    expect(within(active).getByRole('link', { name: 'Cloud-Speicher mueller verlängern' }).getAttribute('href')).toBe('/shop/cloud-storage?renew=a1');
    expect(within(setup).getByText('Wird eingerichtet')).toBeTruthy();
    expect(within(setup).queryByRole('link', { name: /verlängern/ })).toBeNull();
  });
});
