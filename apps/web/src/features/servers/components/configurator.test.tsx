// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { GERMAN_CONSUMER_VIEW, taxInvoiceNotes, type TaxView } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { Configurator, NEW_SERVER_DEFAULTS } from './configurator.tsx';

// The default configuration (Linux, 2 cores, 4 GB, 50 GB, 1 month) lists at 4,82 € German gross:
// net 4,05 € for everyone (4,82 ÷ 1,19), 4,86 € with French 20 %.
const signedIn = (view: Partial<TaxView>): TaxView => ({ ...GERMAN_CONSUMER_VIEW, signedIn: true, ...view });
const swissConsumer = signedIn({
  ratePercent: 0, category: 'O', placeOfSupply: 'CH', priceMode: 'gross', priceLabel: 'ohne USt. (nicht im Inland steuerbar)',
  invoiceNote: taxInvoiceNotes.notTaxableConsumer, country: 'CH', countryName: 'Schweiz',
});
const austrianCompany = signedIn({
  ratePercent: 0, category: 'AE', placeOfSupply: 'AT', priceMode: 'net', priceLabel: 'Reverse Charge',
  invoiceNote: taxInvoiceNotes.reverseCharge, country: 'AT', countryName: 'Österreich', business: true,
});
const frenchConsumer = signedIn({
  ratePercent: 20, placeOfSupply: 'FR', priceLabel: 'inkl. 20 % USt.', invoiceNote: taxInvoiceNotes.oss('Frankreich'), country: 'FR', countryName: 'Frankreich',
});
const germanCompany = signedIn({ priceMode: 'net', priceLabel: 'zzgl. USt.', business: true });

function renderConfigurator(view: TaxView | null) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    calls.push(url);
    if (url === '/api/shop/tax' && view) return new Response(JSON.stringify(view), { status: 200, headers: { 'content-type': 'application/json' } });
    return new Response(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'Nicht erreichbar.' } }), { status: 503 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><MemoryRouter><Configurator defaults={NEW_SERVER_DEFAULTS} /></MemoryRouter></QueryClientProvider>);
  return calls;
}

/** formatEuro separates the amount and € with a no-break space. */
const total = () => ({ textContent: screen.getByTestId('kvm-total').textContent?.replace(/\s/g, ' ') });

describe('configurator prices follow the customer tax view (issue 24)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows a visitor German gross prices and the hint about signing in, without asking the server', () => {
    const calls = renderConfigurator(null);
    expect(total().textContent).toBe('4,82 €');
    expect(screen.getByTestId('tax-label').textContent).toBe('inkl. 19 % USt.');
    expect(screen.getByText(/Firmenkunden und Kunden im Ausland sehen ihren Preis nach der Anmeldung/)).toBeTruthy();
    expect(calls).not.toContain('/api/shop/tax');
  });

  it('shows a Swiss consumer the net price without German VAT and the invoice note', async () => {
    setToken('token');
    renderConfigurator(swissConsumer);
    await waitFor(() => expect(total().textContent).toBe('4,05 €'));
    expect(screen.getByTestId('tax-label').textContent).toBe('ohne USt. (nicht im Inland steuerbar)');
    expect(screen.getByText(`Auf der Rechnung: ${taxInvoiceNotes.notTaxableConsumer}`)).toBeTruthy();
    expect(screen.queryByText(/nach der Anmeldung/)).toBeNull();
  });

  it('shows an Austrian company with a confirmed VAT ID the net price with Reverse Charge', async () => {
    setToken('token');
    renderConfigurator(austrianCompany);
    await waitFor(() => expect(total().textContent).toBe('4,05 €'));
    expect(screen.getByTestId('tax-label').textContent).toBe('Reverse Charge');
    expect(screen.getByText(/Steuerschuldnerschaft des Leistungsempfängers/)).toBeTruthy();
  });

  it('shows a French consumer above the threshold the net price plus 20 %', async () => {
    setToken('token');
    renderConfigurator(frenchConsumer);
    await waitFor(() => expect(total().textContent).toBe('4,86 €'));
    expect(screen.getByTestId('tax-label').textContent).toBe('inkl. 20 % USt.');
    expect(screen.getByText(/Darin enthalten: 0,81\s€ USt\. \(20 %\)\./)).toBeTruthy();
  });

  it('shows a German company the net price plus VAT and what it will pay', async () => {
    setToken('token');
    renderConfigurator(germanCompany);
    await waitFor(() => expect(total().textContent).toBe('4,05 €'));
    expect(screen.getByTestId('tax-label').textContent).toBe('zzgl. USt.');
    expect(screen.getByText(/Nettopreis zzgl\. 19 % USt\., zu zahlen 4,82 €/)).toBeTruthy();
  });

  it('tells a business customer billed as a consumer why, before the order button', async () => {
    setToken('token');
    const explanation = 'Ihre USt-IdNr. wurde bei der Prüfung nicht als gültig bestätigt. Deshalb berechnen wir Ihnen wie einem Privatkunden 19 % deutsche Umsatzsteuer.';
    renderConfigurator(signedIn({ business: true, country: 'AT', countryName: 'Österreich', explanation }));
    expect(await screen.findByText(explanation)).toBeTruthy();
    expect(total().textContent).toBe('4,82 €');
  });

  it('shows German prices and says so when the tax view cannot be loaded', async () => {
    setToken('token');
    renderConfigurator(null);
    // The hook asks once more before it gives up.
    expect(await screen.findByText(/Ihre Steuerangaben konnten nicht geladen werden/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(total().textContent).toBe('4,82 €');
  });
});
