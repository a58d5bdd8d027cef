// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FinanceMonth, Statistics } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import StatisticsPage from './statistics-page.tsx';

const resource = { physical: 0, allocated: 0, free: 0, used: null, overcommit: 0 };
const month = (m: string, churnedCustomers: number, counts: [number, number, number, number]): FinanceMonth => ({
  month: m, revenueCents: 0, mrrCents: 0, arrCents: 0, arpaCents: 0, payingCustomers: 0, newCustomers: 0, churnedCustomers,
  churned: (['root_server', 'webhosting', 'domain', 'cloud_storage'] as const).map((kind, i) => ({ kind, count: counts[i]! })),
});
const statistics: Statistics = {
  from: '2026-04', to: '2026-05', generatedAt: '2026-05-10T10:00:00.000Z',
  capacity: { nodes: [], total: { cpu: resource, ram: resource, storage: resource }, liveAvailable: true, products: [] },
  finances: {
    months: [month('2026-04', 1, [2, 0, 1, 0]), month('2026-05', 3, [0, 4, 0, 5])],
    current: null,
    products: [
      { kind: 'root_server', label: 'Server' }, { kind: 'webhosting', label: 'Webhosting-Pakete' },
      { kind: 'domain', label: 'Domains' }, { kind: 'cloud_storage', label: 'Cloud-Speicher' },
    ],
  },
  receivables: [],
  support: { openTickets: 0, medianFirstResponseMinutes: null, answeredTickets: 0, byType: [] },
};

function renderPage(data: Statistics) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/api/admin/statistics?')
    ? new Response(JSON.stringify(data), { status: 200, headers: { 'content-type': 'application/json' } })
    : new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404, headers: { 'content-type': 'application/json' } }))));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><StatisticsPage /></QueryClientProvider>);
}

describe('statistics page: churn per product', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the ended terms of every product the API names in one column, with each product\'s count under the total', async () => {
    renderPage(statistics);
    const table = await screen.findByRole('table', { name: 'Finanzen je Monat' });
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers.slice(-2)).toEqual(['Verlorene Kunden', 'Ausgelaufene Laufzeiten']);
    const [, april, may] = within(table).getAllByRole('row');
    const last = (row: HTMLElement) => within(row).getAllByRole('cell').slice(-2);
    expect(last(april!)[0]!.textContent).toBe('1');
    expect(within(last(april!)[1]!).getByTestId('churn-total').textContent).toBe('3');
    expect(within(last(april!)[1]!).getByTestId('churn-split').textContent).toBe('Server 2 · Domains 1');
    expect(within(last(may!)[1]!).getByTestId('churn-total').textContent).toBe('9');
    expect(within(last(may!)[1]!).getByTestId('churn-split').textContent).toBe('Webhosting-Pakete 4 · Cloud-Speicher 5');
  });

  it('takes the products from the data, not from a list of products in the page', async () => {
    renderPage({
      ...statistics,
      finances: { ...statistics.finances, products: [{ kind: 'domain', label: 'Domains' }] },
    });
    const table = await screen.findByRole('table', { name: 'Finanzen je Monat' });
    const [, april, may] = within(table).getAllByRole('row');
    const split = (row: HTMLElement) => within(row).queryByTestId('churn-split')?.textContent ?? null;
    expect(split(april!)).toBe('Domains 1');
    expect(split(may!)).toBeNull();
    expect(within(may!).getByTestId('churn-total').textContent).toBe('0');
  });
});
