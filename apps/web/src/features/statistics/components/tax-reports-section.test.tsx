// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { taxThresholdOf, type TaxQuarterReports } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import { TaxReportsSection } from './tax-reports-section.tsx';

const q2: TaxQuarterReports = {
  quarter: '2026-Q2', from: '2026-04-01', to: '2026-06-30',
  zm: [{ countryCode: 'AT', vatId: 'ATU12345678', netCents: 15_000, invoices: 2, creditNotes: 0 }],
  oss: [
    { country: 'FR', countryName: 'Frankreich', ratePercent: 20, netCents: 15_000, vatCents: 3_000, correctsQuarter: null },
    { country: 'FI', countryName: 'Finnland', ratePercent: 25.5, netCents: -10_000, vatCents: -2_550, correctsQuarter: '2026-Q1' },
  ],
};
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderSection(threshold = taxThresholdOf({ previousYear: 250_000, currentYear: 820_000 }, 2026, false)) {
  const fetch = vi.fn(async (url: string) => {
    if (url === '/api/admin/statistics/tax/threshold') return json(threshold);
    if (url === '/api/admin/statistics/tax/reports?quarter=2026-Q2') return json(q2);
    if (url.startsWith('/api/admin/statistics/tax/reports?quarter=')) return json({ ...q2, quarter: url.slice(-7), zm: [], oss: [] });
    if (url === '/api/admin/statistics/tax/zm.csv?quarter=2026-Q2') return new Response('\uFEFFLänderkennzeichen;USt-IdNr.\r\n', { status: 200, headers: { 'content-disposition': 'attachment; filename="zm-2026-Q2.csv"' } });
    return json({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><TaxReportsSection /></QueryClientProvider>);
  return fetch;
}

describe('Steuermeldungen on the statistics page', () => {
  beforeEach(() => {
    setToken('token');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-10T10:00:00Z'));
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows both years against the threshold and warns from 80 %', async () => {
    renderSection();
    const current = await screen.findByRole('progressbar', { name: 'Laufendes Jahr 2026: Anteil an der Lieferschwelle' });
    expect(current.getAttribute('aria-valuenow')).toBe('82');
    expect(current.getAttribute('aria-valuetext')).toBe('82\u00a0% von 10.000,00\u00a0€ (8.200,00\u00a0€)');
    expect(screen.getByRole('progressbar', { name: 'Vorjahr 2025: Anteil an der Lieferschwelle' }).getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByText(/Achtung: Die Verkäufe an Verbraucher in anderen EU-Staaten haben im laufenden Jahr \(2026\) 82 %/)).toBeTruthy();
    expect(screen.getByText(/VAT_EU_CONSUMERS=threshold/)).toBeTruthy();
  });

  it('says so while both years are below 80 %', async () => {
    renderSection(taxThresholdOf({ previousYear: 0, currentYear: 100 }, 2026, false));
    expect(await screen.findByText('Beide Jahre liegen unter 80 % der Lieferschwelle.')).toBeTruthy();
    expect(screen.queryByText(/Achtung/)).toBeNull();
  });

  it('offers the last 8 quarters, previews the lines and shows an empty quarter as such', async () => {
    renderSection();
    const select = screen.getByLabelText('Quartal') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      '2. Quartal 2026', '1. Quartal 2026', '4. Quartal 2025', '3. Quartal 2025', '2. Quartal 2025', '1. Quartal 2025', '4. Quartal 2024', '3. Quartal 2024',
    ]);
    const zm = await screen.findByRole('table', { name: 'Zusammenfassende Meldung 2. Quartal 2026' });
    expect(within(zm).getByRole('rowheader').textContent).toBe('ATU12345678');
    const oss = screen.getByRole('table', { name: 'OSS-Meldung 2. Quartal 2026' });
    expect(within(oss).getAllByRole('rowheader').map((c) => c.textContent)).toEqual(['Frankreich (FR)', 'Finnland (FI)']);
    expect(within(oss).getByText('25,5 %')).toBeTruthy();
    expect(within(oss).getByText('1. Quartal 2026')).toBeTruthy();

    fireEvent.change(select, { target: { value: '2025-Q4' } });
    expect(await screen.findByText('Im 4. Quartal 2025 gibt es keine Umsätze für die Zusammenfassende Meldung.')).toBeTruthy();
    expect(screen.getByText('Im 4. Quartal 2025 gibt es keine Umsätze für die OSS-Meldung.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'OSS-Meldung 4. Quartal 2025 als CSV herunterladen' })).toBeTruthy();
  });

  it('downloads the ZM of the chosen quarter with the session\'s token', async () => {
    // jsdom has no object URLs.
    const urls = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
    urls.createObjectURL = vi.fn(() => 'blob:zm');
    urls.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetch = renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Zusammenfassende Meldung 2. Quartal 2026 als CSV herunterladen' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const call = fetch.mock.calls.find(([url]) => url === '/api/admin/statistics/tax/zm.csv?quarter=2026-Q2') as unknown as [string, RequestInit] | undefined;
    expect(call).toBeDefined();
    expect(new Headers(call![1].headers).get('authorization')).toBe('Bearer token');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('zm-2026-Q2.csv');
    click.mockRestore();
    delete urls.createObjectURL;
    delete urls.revokeObjectURL;
  });
});
