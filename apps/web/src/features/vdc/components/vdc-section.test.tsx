// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { VdcList } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { VdcSection } from './vdc-section.tsx';

const pool = { cpu: { used: 6, total: 8 }, ramGb: { used: 12, total: 16 }, storageGb: { used: 160, total: 1500 }, ipv4: { used: 1, total: 2 } };
const list: VdcList = {
  items: [
    { id: 'a1', number: 1001, name: 'Projekt Alpha', status: 'active', statusMessage: null, expiresAt: '2027-01-15T00:00:00.000Z', ...pool, vms: 2 },
    { id: 'b2', number: 1002, name: 'Neu', status: 'provisioning', statusMessage: null, expiresAt: null, ...pool, vms: 0 },
  ],
};

function renderSection(body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url === '/api/vdcs'
    ? new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    : new Response('{}', { status: 404 }))));
  render(<QueryClientProvider client={new QueryClient()}><MemoryRouter><VdcSection /></MemoryRouter></QueryClientProvider>);
}

describe('"Meine Produkte": virtual data center section (issue 25)', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows a card per pool with its use, VMs and term, linking to its page; one being set up cannot be renewed yet', async () => {
    renderSection(list);
    const cards = within(await screen.findByRole('list', { name: 'Virtual Data Center' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const [active, setup] = cards as [HTMLElement, HTMLElement];
    expect(within(active).getByRole('heading', { name: 'Projekt Alpha' })).toBeTruthy();
    expect(active.textContent).toContain('VDC-ID 1001');
    expect(active.textContent).toContain('vCPU: 6 von 8 Kernen belegt');
    expect(active.textContent).toContain('Speicher: 160 von 1.500 GB belegt');
    expect(active.textContent).toContain('2 VMs');
    expect(active.textContent).toContain('Läuft bis 15.01.2027');
    expect(within(active).getByRole('link', { name: 'Virtual Data Center Projekt Alpha verwalten' }).getAttribute('href')).toBe('/dashboard/vdc/a1');
    expect(within(active).getByRole('link', { name: 'Virtual Data Center Projekt Alpha verlängern oder erweitern' }).getAttribute('href')).toBe('/shop/vdc-request?renew=a1');
    expect(within(setup).getByText('Wird eingerichtet')).toBeTruthy();
    expect(within(setup).queryByRole('link', { name: /verlängern/ })).toBeNull();
  });

  it('without a pool shows the short hint and the shop link, like the other products', async () => {
    renderSection({ items: [] });
    expect(await screen.findByRole('heading', { name: 'Kein Virtual Data Center' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Virtual Data Center bestellen' }).getAttribute('href')).toBe('/shop/vdc-request');
  });
});
