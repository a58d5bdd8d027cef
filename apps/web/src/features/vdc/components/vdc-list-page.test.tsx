// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AdminVdcPage } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import VdcListPage from './vdc-list-page.tsx';

const page: AdminVdcPage = {
  items: [{
    id: 'v1', number: 70001, name: 'Projekt Alpha', status: 'active', statusMessage: null,
    owner: { id: 'u1', customerNumber: 10003, username: 'kunde' }, node: { id: 1, name: 'fra-node-01' },
    cpu: { used: 4, total: 8 }, ramGb: { used: 4, total: 16 }, storageGb: { used: 40, total: 1500 }, ipv4: { used: 2, total: 2 },
    vms: 2, expiresAt: '2027-01-15T00:00:00.000Z', createdAt: '2026-12-01T00:00:00.000Z',
  }],
  total: 1, page: 1, pageSize: 25,
};

describe('staff: virtual data center list (issue 25)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('lists the pools with owner, node and use, and asks the server for search and status filter', async () => {
    setToken('token');
    const urls: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
    }));
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><MemoryRouter initialEntries={['/dashboard/vdcs']}><VdcListPage /></MemoryRouter></QueryClientProvider>);
    const table = await screen.findByRole('table', { name: 'Virtual Data Center' });
    const row = within(table).getByRole('rowheader', { name: /Projekt Alpha/ }).closest('tr')!;
    expect(row.textContent).toContain('VDC-ID 70001');
    expect(row.textContent).toContain('fra-node-01');
    expect(row.textContent).toContain('4 / 8');
    expect(row.textContent).toContain('40 / 1.500 GB');
    expect(within(row).getByRole('link', { name: 'Kunde 10003 (kunde)' }).getAttribute('href')).toBe('/dashboard/customer-details/u1');
    expect(urls[0]).toBe('/api/admin/vdcs?page=1&pageSize=25');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'provisioning' } });
    await waitFor(() => expect(urls.at(-1)).toBe('/api/admin/vdcs?page=1&pageSize=25&status=provisioning'));
  });
});
