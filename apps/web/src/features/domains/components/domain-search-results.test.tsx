// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { GERMAN_CONSUMER_VIEW, taxInvoiceNotes, type DomainSearchResult, type TaxView } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import DomainSearchResults from './domain-search-results.tsx';

// A name listed at 11,90 € a year (German gross) costs 10,00 € net for everyone.
const result: DomainSearchResult = {
  items: [{ domain: 'beispiel.de', unicode: 'beispiel.de', tld: 'de', status: 'free', reason: null, yearCents: 1190 }],
  invalid: [],
  error: null,
};
const austrianCompany: TaxView = {
  ...GERMAN_CONSUMER_VIEW, signedIn: true, ratePercent: 0, category: 'AE', placeOfSupply: 'AT', priceMode: 'net', priceLabel: 'Reverse Charge',
  invoiceNote: taxInvoiceNotes.reverseCharge, country: 'AT', countryName: 'Österreich', business: true,
};

function renderResults() {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    calls.push(url);
    const body = url.startsWith('/api/domains/search') ? result : url === '/api/shop/tax' ? austrianCompany : null;
    return body ? new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }) : new Response('{}', { status: 404 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><MemoryRouter><DomainSearchResults q="beispiel.de" /></MemoryRouter></QueryClientProvider>);
  return calls;
}

const yearPrice = async () => (await screen.findByText(/\/ Jahr/)).textContent?.replace(/\s/g, ' ');

describe('domain search prices follow the tax view (issue 24)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows visitors the German price and the hint, without asking for a tax view', async () => {
    const calls = renderResults();
    expect(await yearPrice()).toBe('11,90 € / Jahr inkl. 19 % USt.');
    expect(screen.getByText(/sehen ihren Preis nach der Anmeldung/)).toBeTruthy();
    expect(calls).not.toContain('/api/shop/tax');
  });

  it('shows an Austrian company the net price with Reverse Charge', async () => {
    setToken('token');
    renderResults();
    await screen.findByText(`Auf der Rechnung: ${taxInvoiceNotes.reverseCharge}`);
    expect(await yearPrice()).toBe('10,00 € / Jahr Reverse Charge');
  });
});
