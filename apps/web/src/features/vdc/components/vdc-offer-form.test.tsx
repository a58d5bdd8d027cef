// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { GERMAN_CONSUMER_VIEW, vdcOfferMessages, type VdcOffer } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import VdcTicketOffers from './vdc-offer-form.tsx';
import { VdcOfferCheckout } from './vdc-offer-checkout.tsx';

const TICKET_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const OFFER_ID = '2b3c4d5e-6f70-4a1b-9c2d-3e4f5a6b7c8d';
const offer: VdcOffer = {
  id: OFFER_ID, ticketId: TICKET_ID, cpu: 96, ram: 384, storage: 6000, ipv4: 18, months: 6, priceCents: 654_321,
  status: 'open', validUntil: '2026-12-08T10:00:00.000Z', payPath: `/shop/vdc-request?offer=${OFFER_ID}`, createdAt: '2026-11-28T10:00:00.000Z',
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

function stubApi(answers: { offers?: VdcOffer[]; offer?: Response } = {}) {
  const calls: { url: string; init?: RequestInit }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: string, init?: RequestInit) => {
    calls.push({ url: input, init });
    if (input === '/api/shop/tax') return json({ ...GERMAN_CONSUMER_VIEW, signedIn: true });
    if (input === `/api/tickets/${TICKET_ID}/vdc-offers`) return json(answers.offers ?? [offer]);
    if (input === `/api/admin/tickets/${TICKET_ID}/vdc-offers`) return json(offer, 201);
    if (input === `/api/vdc-offers/${OFFER_ID}`) return answers.offer ?? json(offer);
    if (input === '/api/shop/vdc/offer-checkout') return json({ orderId: 'o1', sessionId: 's1', url: '#bezahlen' }, 201);
    return json({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }, 404);
  }));
  return calls;
}

function renderWithClient(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}><MemoryRouter>{ui}</MemoryRouter></QueryClientProvider>);
}

const bodyOf = (calls: { url: string; init?: RequestInit }[], url: string) => JSON.parse(String(calls.find((c) => c.url === url && c.init?.method !== 'GET')!.init!.body)) as unknown;

describe('VDC offers in a "VDC-Anfrage" ticket (issue 25)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('staff: lists the offers and sends a new one beyond the sliders with the price in cents, checked by the contract first', async () => {
    setToken('token');
    const calls = stubApi();
    renderWithClient(<VdcTicketOffers ticketId={TICKET_ID} type="vdc_request" closed={false} viewer="staff" />);
    expect(await screen.findByText('96 Kerne · 384 GB RAM · 6.000 GB Speicher · 18 IPv4')).toBeTruthy();
    expect(screen.getByText('Offen')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Zurückziehen' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Angebot annehmen' })).toBeNull();

    const set = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    set('vCPU-Kerne', '128');
    set('RAM (GB)', '512');
    set('Speicher (GB)', '10000');
    set('IPv4-Adressen', '20');
    set('Laufzeit (Monate)', '12');
    set('Gültigkeit (Tage)', '7');
    // Without a price the contract's message shows at the euro field and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Angebot senden' }));
    expect(await screen.findByText('Preis: Bitte geben Sie eine Zahl an.')).toBeTruthy();
    set('Gültigkeit (Tage)', '90');
    set('Preis in Euro (brutto, gesamte Laufzeit)', '1234.56');
    fireEvent.click(screen.getByRole('button', { name: 'Angebot senden' }));
    expect(await screen.findByText('Gültigkeit: höchstens 60 Tage.')).toBeTruthy();
    expect(calls.some((c) => c.url === `/api/admin/tickets/${TICKET_ID}/vdc-offers`)).toBe(false);

    set('Gültigkeit (Tage)', '7');
    fireEvent.click(screen.getByRole('button', { name: 'Angebot senden' }));
    await waitFor(() => expect(calls.some((c) => c.url === `/api/admin/tickets/${TICKET_ID}/vdc-offers`)).toBe(true));
    expect(bodyOf(calls, `/api/admin/tickets/${TICKET_ID}/vdc-offers`)).toEqual({ cpu: 128, ram: 512, storage: 10000, ipv4: 20, months: 12, priceCents: 123_456, validDays: 7 });
  });

  it('staff: no form in a closed ticket; nothing at all in a ticket of another type', async () => {
    const calls = stubApi();
    renderWithClient(<VdcTicketOffers ticketId={TICKET_ID} type="vdc_request" closed viewer="staff" />);
    expect(await screen.findByText('Offen')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Angebot senden' })).toBeNull();
    cleanup();
    calls.length = 0;
    renderWithClient(<VdcTicketOffers ticketId={TICKET_ID} type="question" closed={false} viewer="staff" />);
    expect(screen.queryByText('Angebote zum Virtual Data Center')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('customer: sees the offer at their price with "Angebot annehmen" to the shop page, and no form', async () => {
    setToken('token');
    stubApi({ offers: [offer, { ...offer, id: 'old', status: 'expired', payPath: null }] });
    renderWithClient(<VdcTicketOffers ticketId={TICKET_ID} type="vdc_request" closed={false} viewer="customer" />);
    const links = await screen.findAllByRole('link', { name: 'Angebot annehmen' });
    expect(links.map((l) => l.getAttribute('href'))).toEqual([`/shop/vdc-request?offer=${OFFER_ID}`]);
    expect(screen.getByText('Abgelaufen')).toBeTruthy();
    await waitFor(() => expect(plain(screen.getAllByText(/6 Monate ·/)[0]!.textContent)).toContain('6.543,21 € inkl. 19 % USt.'));
    expect(screen.queryByRole('button', { name: 'Angebot senden' })).toBeNull();
  });
});

describe('VDC offer checkout on /shop/vdc-request?offer= (issue 25)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows the offer and pays it with the terms accepted, sending only the offer\'s id (and a name)', async () => {
    setToken('token');
    const calls = stubApi();
    renderWithClient(<VdcOfferCheckout offerId={OFFER_ID} />);
    expect(await screen.findByText('96 Kerne')).toBeTruthy();
    await waitFor(() => expect(plain(screen.getByTestId('vdc-offer-total').textContent)).toBe('6.543,21 €'));
    fireEvent.click(screen.getByRole('button', { name: 'Angebot annehmen und bezahlen' }));
    expect((await screen.findAllByText('Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.url === '/api/shop/vdc/offer-checkout')).toBe(false);

    fireEvent.change(screen.getByLabelText('Name des Virtual Data Centers (optional)'), { target: { value: 'Kubernetes' } });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Angebot annehmen und bezahlen' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/shop/vdc/offer-checkout')).toBe(true));
    expect(bodyOf(calls, '/api/shop/vdc/offer-checkout')).toEqual({ offerId: OFFER_ID, acceptTerms: true, name: 'Kubernetes' });
  });

  it('says why an offer cannot be paid, and that a foreign one does not exist', async () => {
    setToken('token');
    stubApi({ offer: json({ ...offer, status: 'expired', payPath: null }) });
    renderWithClient(<VdcOfferCheckout offerId={OFFER_ID} />);
    expect(await screen.findByText(vdcOfferMessages.expired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Angebot annehmen und bezahlen' })).toBeNull();
    cleanup();
    stubApi({ offer: json({ error: { code: 'NOT_FOUND', message: vdcOfferMessages.notFound } }, 404) });
    renderWithClient(<VdcOfferCheckout offerId={OFFER_ID} />);
    expect(await screen.findByText(vdcOfferMessages.notFound)).toBeTruthy();
  });
});
