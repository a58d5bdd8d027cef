// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { profileMessages, taxMessages, type Profile } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import ProfilePage from './profile-page.tsx';

const base: Profile = {
  username: 'alpen', customerId: '10042', email: 'alpen@example.com', phone: '', street: 'Ringstraße 1', zipCode: '1010', city: 'Wien',
  country: 'AT', companyName: '', industry: '', business: false, vatId: '', vatCheck: null, mfaEnabled: false,
};

function renderPage(profile: Profile, answer?: (body: Record<string, unknown>) => Response) {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/account/profile' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push(body);
      return answer ? answer(body) : new Response(JSON.stringify({ ...profile, ...body }), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    if (url === '/api/account/profile') return new Response(JSON.stringify(profile), { status: 200, headers: { 'content-type': 'application/json' } });
    return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><MemoryRouter><ProfilePage /></MemoryRouter></QueryClientProvider>);
  return sent;
}

describe('profile: Firmenkunde and VAT ID (issue 24)', () => {
  beforeEach(() => {
    setToken('token');
    // Radix's switch measures itself; jsdom has no ResizeObserver.
    vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('offers every country, the EU first', async () => {
    renderPage(base);
    const select = await screen.findByLabelText('Land');
    const groups = [...select.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups).toEqual(['Europäische Union', 'Weitere Länder']);
    expect(select.querySelectorAll('optgroup')[0]!.querySelectorAll('option')).toHaveLength(27);
    expect(select.querySelectorAll('option').length).toBeGreaterThan(240);
    expect((select as HTMLSelectElement).value).toBe('AT');
  });

  it('asks for the VAT ID only when the switch is on and the country is in the EU, and needs a company name', async () => {
    const sent = renderPage(base);
    const toggle = await screen.findByRole('switch', { name: 'Firmenkunde' });
    expect(screen.queryByLabelText('USt-IdNr.')).toBeNull();
    fireEvent.click(toggle);
    const vatId = await screen.findByLabelText('USt-IdNr.');
    fireEvent.change(vatId, { target: { value: 'ATU123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' }));
    expect(await screen.findByText(profileMessages.companyNameRequired)).toBeTruthy();
    expect(await screen.findByText(taxMessages.vatIdWrongFormat('Österreich'))).toBeTruthy();
    expect(sent).toHaveLength(0);

    // Outside the EU there is no VAT ID to give.
    fireEvent.change(screen.getByLabelText('Land'), { target: { value: 'CH' } });
    await waitFor(() => expect(screen.queryByLabelText('USt-IdNr.')).toBeNull());
    fireEvent.change(screen.getByLabelText('Land'), { target: { value: 'AT' } });
    fireEvent.change(await screen.findByLabelText('USt-IdNr.'), { target: { value: 'ATU12345678' } });
    fireEvent.change(screen.getByLabelText('Firmenname (Pflichtfeld)'), { target: { value: 'Alpen Hosting GmbH' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' })));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ country: 'AT', business: true, vatId: 'ATU12345678', companyName: 'Alpen Hosting GmbH' });
  });

  it('shows the check\'s result, and keeps the input when saving fails', async () => {
    const confirmed: Profile = {
      ...base, business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU12345678',
      vatCheck: { status: 'valid', vatId: 'ATU12345678', service: 'simulated', consultationNumber: 'SIM-ABC', checkedAt: '2026-11-27T10:00:00.000Z', message: 'Ihre USt-IdNr. wurde bestätigt (simulierte Prüfung, Abfragenummer SIM-ABC, am 27.11.2026).' },
    };
    const sent = renderPage(confirmed, () => new Response(JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: 'Die Umsatzsteuer-Identifikationsnummer hat nicht das Format für Österreich.' } }), { status: 400, headers: { 'content-type': 'application/json' } }));
    expect((await screen.findByTestId('vat-check-result')).textContent).toBe(confirmed.vatCheck!.message);
    fireEvent.change(screen.getByLabelText('USt-IdNr.'), { target: { value: 'ATU87654321' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Änderungen speichern' })));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect((screen.getByLabelText('USt-IdNr.') as HTMLInputElement).value).toBe('ATU87654321');
  });

  it('offers to check again when the service was unavailable', async () => {
    const unavailable: Profile = {
      ...base, business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU12349999',
      vatCheck: { status: 'unavailable', vatId: 'ATU12349999', service: 'simulated', consultationNumber: null, checkedAt: '2026-11-27T10:00:00.000Z', message: taxMessages.vatIdUnavailable('19 % deutsche Umsatzsteuer') },
    };
    const sent = renderPage(unavailable);
    expect((await screen.findByTestId('vat-check-result')).textContent).toContain(taxMessages.vatIdUnavailable('19 % deutsche Umsatzsteuer'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Jetzt prüfen' })));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ country: 'AT', business: true, vatId: 'ATU12349999', companyName: 'Alpen Hosting GmbH' });
    expect(sent[0]).not.toHaveProperty('email');
  });
});
