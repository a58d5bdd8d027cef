// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { taxInvoiceNotes, type OrderDetail } from '@hp/contract';
import { clearToken, setToken } from '../lib/session.ts';
import { ProductViewsProvider } from '../lib/product-views.tsx';
import { productViews } from './product-views.ts';
import OrderDetailPage from '../features/billing/components/order-page.tsx';

// The order page takes a product's button and its own lines from the views the app provides (decisions 033, 035).

const ID = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
const german = { ratePercent: 19, category: 'S', placeOfSupply: 'DE', priceMode: 'gross', priceLabel: 'inkl. 19 % USt.', invoiceNote: '', explanation: null } as const;
const order: OrderDetail = {
  id: ID, number: '100012', product: 'Root Server', kind: 'new', status: 'completed', date: '2026-11-27T10:00:00.000Z', amountCents: 405, months: 1,
  nextBillingDate: '2026-12-27T10:00:00.000Z', productKind: 'root_server', subscriptionPath: null,
  configuration: {
    product: 'root_server', location: 'Frankfurt am Main', os: 'Debian 12',
    cpu: { cores: 2, priceCents: 236 }, ram: { size: 4, type: 'DDR4 ECC', priceCents: 41 }, storage: { size: 50, type: 'NVMe SSD', priceCents: 128 }, osPriceCents: 0,
    network: { ip: '203.0.113.2', bandwidth: '1 Gbit/s', priceCents: 0 },
  },
  discountPercent: 0,
  netCents: 405, vatCents: 0, grossCents: 405, perMonth: { netCents: 405, vatCents: 0, grossCents: 405 },
  tax: { ...german, ratePercent: 0, category: 'AE', placeOfSupply: 'AT', priceMode: 'net', priceLabel: 'Reverse Charge', invoiceNote: taxInvoiceNotes.reverseCharge },
  invoiceId: null, paymentMethod: 'VISA •••• 4242',
};

function renderPage(detail: OrderDetail) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url === `/api/orders/${ID}`
    ? new Response(JSON.stringify(detail), { status: 200, headers: { 'content-type': 'application/json' } })
    : new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404 }))));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ProductViewsProvider value={productViews}>
        <MemoryRouter initialEntries={[`/dashboard/order/${ID}`]}>
          <Routes><Route path="/dashboard/order/:orderId" element={<OrderDetailPage />} /></Routes>
        </MemoryRouter>
      </ProductViewsProvider>
    </QueryClientProvider>,
  );
}

/** The value next to a label in the "Gesamtbetrag" card (formatEuro's no-break space read as a space). */
async function totalRow(label: string) {
  const card = (await screen.findByRole('heading', { name: 'Gesamtbetrag' })).closest('div')!;
  const term = within(card).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent?.replace(/\s/g, ' ');
}

describe('order page splits the total by the order’s own tax decision (issue 24)', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows a reverse-charge order with a 0 % line that says why, and the invoice note', async () => {
    renderPage(order);
    expect(await totalRow('USt. 0 % – Reverse Charge')).toBe('0,00 €');
    expect(await totalRow('Gesamt')).toBe('4,05 €');
    expect(screen.getByText('USt. 0 % pro Monat – Reverse Charge')).toBeTruthy();
    expect(screen.getByTestId('order-tax-note').textContent).toBe(`Auf der Rechnung: ${taxInvoiceNotes.reverseCharge}`);
    expect(screen.queryByText(/USt\. 19 %/)).toBeNull();
  });

  it('shows a French consumer’s order with 20 % and no 19 %', async () => {
    renderPage({
      ...order, amountCents: 486, vatCents: 81, grossCents: 486, perMonth: { netCents: 405, vatCents: 81, grossCents: 486 },
      tax: { ...german, ratePercent: 20, placeOfSupply: 'FR', priceLabel: 'inkl. 20 % USt.', invoiceNote: taxInvoiceNotes.oss('Frankreich') },
    });
    expect(await totalRow('USt. 20 %')).toBe('0,81 €');
    expect(await totalRow('Gesamt (brutto)')).toBe('4,86 €');
    expect(screen.queryByText(/19 %/)).toBeNull();
  });

  it('keeps a German order as it was: 19 % and no note', async () => {
    renderPage({ ...order, amountCents: 482, vatCents: 77, grossCents: 482, perMonth: { netCents: 405, vatCents: 77, grossCents: 482 }, tax: german });
    expect(await totalRow('USt. 19 %')).toBe('0,77 €');
    expect(await totalRow('Gesamt (brutto)')).toBe('4,82 €');
    expect(screen.queryByTestId('order-tax-note')).toBeNull();
  });
});

describe('order page lines per product', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('lists a cloud storage order with its plan, account and quota (issue 23)', async () => {
    renderPage({
      ...order, product: 'Cloud-Speicher 1 TB', productKind: 'cloud_storage',
      configuration: { product: 'cloud_storage', plan: '1tb', planName: '1 TB', accountName: 'mueller', quotaGb: 1024 }, tax: german,
      perMonth: { netCents: 839, vatCents: 160, grossCents: 999 }, netCents: 839, vatCents: 160, grossCents: 999, amountCents: 999,
    });
    const table = await screen.findByRole('table', { name: /Paket-Details/ });
    const text = table.textContent?.replace(/\s/g, ' ') ?? '';
    expect(text).toContain('Cloud-Speicher 1 TB');
    expect(text).toContain('8,39 €');
    expect(text).toContain('mueller');
    expect(text).toContain('Speicherplatz');
    expect(within(table).getByText('1 TB')).toBeTruthy();
    expect(screen.queryByText('Server Details')).toBeNull();
  });
});
