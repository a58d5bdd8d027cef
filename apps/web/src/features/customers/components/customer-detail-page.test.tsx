// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { GERMAN_CONSUMER_VIEW, type CustomerDetail } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import CustomerDetailPage from './customer-detail-page.tsx';

const ID = '3f0c1f8e-2b7a-4c3e-9d1a-5e6f7a8b9c0d';
const detail: CustomerDetail = {
  id: ID, customerNumber: 10042, name: 'mueller', email: 'mueller@example.com', companyName: '', kind: 'private',
  createdAt: '2026-01-05T10:00:00.000Z', lastLoginAt: null,
  phone: '', industry: '', address: { street: '', zipCode: '', city: '', country: 'DE' },
  business: false, vatId: null, vatCheck: null, tax: GERMAN_CONSUMER_VIEW,
  disabled: false, deletedAt: null, pendingEmail: null,
  productSections: [
    {
      kind: 'root_server', title: 'Server', empty: 'Keine Server.',
      items: [{ id: 'v1', name: 'srv-1001', detail: '203.0.113.10', status: 'Online', expiresAt: '2027-01-15T00:00:00.000Z', href: '/dashboard/servers/v1' }],
    },
    {
      kind: 'webhosting', title: 'Webhosting', empty: 'Keine Hosting-Pakete.',
      items: [{ id: 'h1', name: 'shop.example.de', detail: 'Professional · Hosting-ID 10001', status: 'Aktiv', expiresAt: null }],
    },
    {
      kind: 'domain', title: 'Domains', empty: 'Keine Domains.',
      items: [
        { id: 'd1', name: 'müller.de (xn--mller-kva.de)', detail: '', status: 'Aktiv', expiresAt: '2027-03-01T00:00:00.000Z', note: 'läuft aus' },
        { id: 'd2', name: 'beispiel.de', detail: '', status: 'Transfer läuft', expiresAt: null, note: 'verlängert automatisch' },
      ],
    },
    {
      kind: 'cloud_storage', title: 'Cloud-Speicher', empty: 'Kein Cloud-Speicher.',
      items: [{ id: 's1', name: 'mueller', detail: '500 GB · Speicher-ID 50001', status: 'Aktiv', expiresAt: '2027-02-01T00:00:00.000Z' }],
    },
  ],
  openTickets: [], recentOrders: [], revenueNetCents: 0, openCents: 0, notes: [], audit: [], communications: [],
};

function renderPage(customer: CustomerDetail = detail) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url === `/api/staff/customers/${ID}`
    ? new Response(JSON.stringify(customer), { status: 200, headers: { 'content-type': 'application/json' } })
    : new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404 }))));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/dashboard/customer-details/${ID}`]}>
        <Routes><Route path="/dashboard/customer-details/:customerId" element={<CustomerDetailPage />} /></Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('staff customer detail', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists the customer\'s domains by their readable name with status, expiry and auto-renewal', async () => {
    renderPage();
    const heading = await screen.findByRole('heading', { name: 'Domains' });
    const items = within(heading.parentElement!).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual([
      'müller.de (xn--mller-kva.de)Aktiv · bis 01.03.2027 · läuft aus',
      'beispiel.deTransfer läuft · verlängert automatisch',
    ]);
  });

  it('shows every product\'s section the same way, in the order the API sends them, each with its empty text', async () => {
    renderPage();
    await screen.findByRole('heading', { name: 'Cloud-Speicher' });
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.filter((h) => ['Server', 'Webhosting', 'Domains', 'Cloud-Speicher'].includes(h ?? ''))).toEqual(['Server', 'Webhosting', 'Domains', 'Cloud-Speicher']);
    const items = (name: string) => within(screen.getByRole('heading', { name }).parentElement!).getAllByRole('listitem').map((li) => li.textContent);
    expect(items('Webhosting')).toEqual(['shop.example.deProfessional · Hosting-ID 10001 · Aktiv']);
    expect(items('Cloud-Speicher')).toEqual(['mueller500 GB · Speicher-ID 50001 · Aktiv · bis 01.02.2027']);
    cleanup();
    renderPage({ ...detail, productSections: detail.productSections.map((s) => ({ ...s, items: [] })) });
    for (const empty of ['Keine Server.', 'Keine Hosting-Pakete.', 'Keine Domains.', 'Kein Cloud-Speicher.']) expect(await screen.findByText(empty)).toBeTruthy();
  });

  it('links a server to the staff server page and shows its IP, status and term', async () => {
    renderPage();
    const heading = await screen.findByRole('heading', { name: 'Server' });
    const [row] = within(heading.parentElement!).getAllByRole('listitem');
    expect(within(row!).getByRole('link', { name: 'srv-1001' }).getAttribute('href')).toBe('/dashboard/servers/v1');
    expect(row!.textContent).toBe('srv-1001203.0.113.10 · Online · bis 15.01.2027');
    // Items without a staff page are plain text.
    expect(within(screen.getByRole('heading', { name: 'Webhosting' }).parentElement!).queryByRole('link')).toBeNull();
  });

  it('shows business status, VAT ID and the latest check\'s proof (issue 24)', async () => {
    renderPage({
      ...detail, companyName: 'Alpen Hosting GmbH', kind: 'business', business: true, vatId: 'ATU12345678',
      address: { street: 'Ringstraße 1', zipCode: '1010', city: 'Wien', country: 'AT' },
      vatCheck: {
        status: 'valid', country: 'AT', vatId: 'ATU12345678', service: 'vies', consultationNumber: 'WAPIAAAAW1234567',
        checkedAt: '2026-11-27T10:00:00.000Z', matches: { name: 'match', street: 'mismatch', zip: 'unknown' }, message: null,
      },
    });
    const card = await screen.findByTestId('customer-vat');
    const rows = [...card.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`);
    expect(rows).toEqual([
      'Firmenkunde: ja',
      'USt-IdNr.: ATU12345678',
      'Letzte Prüfung: gültig',
      'Prüfdienst: VIES der EU-Kommission',
      `Geprüft am: ${new Date('2026-11-27T10:00:00.000Z').toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' })}`,
      'Abfragenummer: WAPIAAAAW1234567',
      'Abgleich Name: stimmt überein',
      'Abgleich Straße: weicht ab',
      'Abgleich PLZ: nicht mitgeteilt',
    ]);
    expect(screen.getByText('Österreich', { exact: false })).toBeTruthy();
  });
});
