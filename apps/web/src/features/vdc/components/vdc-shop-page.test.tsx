// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatEuro, VDC_LIMITS, vdcPriceCents, type VdcShopInfo } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { bodyOf, json, plain, renderShopPage, stubShopApi } from '../../../testing/shop-page.tsx';
import VdcShopPage, { noRoomNote, renewalNote } from './vdc-shop-page.tsx';

const VDC_ID = '5f0c2b1e-8d3a-4e6f-9b7c-1a2d3e4f5a6b';
const TICKET_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const shopInfo: VdcShopInfo = { available: true, largestFree: { cpu: 96, ram: 768, storage: 15_000 }, freeIpv4: 29, renewal: null };
const renewalInfo: VdcShopInfo = {
  ...shopInfo,
  renewal: {
    vdcId: VDC_ID, number: 1001, name: 'Projekt Alpha', cpu: 8, ram: 16, storage: 200, ipv4: 2, expiresAt: '2027-01-15T00:00:00.000Z',
    used: { cpu: 7, ram: 10, storage: 120, ipv4: 2 },
  },
};

function renderShop(url = '/shop/vdc-request', answers: { request?: Response; info?: VdcShopInfo } = {}) {
  const calls = stubShopApi((input) => {
    if (input === '/api/shop/vdc') return json(answers.info ?? shopInfo);
    if (input === `/api/shop/vdc/renewal/${VDC_ID}`) return json(renewalInfo);
    if (input === '/api/shop/vdc/checkout') return json({ orderId: 'o1', sessionId: 's1', url: '/shop/payment?session=s1' }, 201);
    if (input === '/api/vdc-requests') return answers.request ?? json({ ticketId: TICKET_ID }, 201);
    return undefined;
  });
  renderShopPage('/shop/vdc-request', <VdcShopPage />, url);
  return calls;
}

const total = () => plain(screen.getByTestId('vdc-total').textContent);
const slider = (name: string) => screen.getByRole('slider', { name }) as HTMLInputElement;

describe('virtual data center shop: configurator (issue 25)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('starts at the smallest pool for 9,64 € and follows every slider with the price engine, showing the duration discount', async () => {
    renderShop();
    await waitFor(() => expect(total()).toBe(plain(formatEuro(vdcPriceCents({ cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1 })))));
    expect(total()).toBe('9,64 €');

    fireEvent.change(slider('vCPU-Kerne'), { target: { value: '16' } });
    fireEvent.change(slider('Arbeitsspeicher (GB)'), { target: { value: '64' } });
    fireEvent.change(slider('Speicher (GB)'), { target: { value: '1000' } });
    fireEvent.change(slider('Öffentliche IPv4-Adressen'), { target: { value: '4' } });
    expect(total()).toBe(plain(formatEuro(vdcPriceCents({ cpu: 16, ram: 64, storage: 1000, ipv4: 4, months: 1 }))));
    expect(screen.queryByText(/Laufzeitrabatt$/)).toBeNull();

    fireEvent.change(slider('Laufzeit (Monate)'), { target: { value: '12' } });
    expect(total()).toBe(plain(formatEuro(vdcPriceCents({ cpu: 16, ram: 64, storage: 1000, ipv4: 4, months: 12 }))));
    expect(screen.getByText(/inkl\. 15 % Laufzeitrabatt/)).toBeTruthy();
    expect(plain(screen.getByText(/entspricht .* pro Monat/).textContent)).toContain(plain(formatEuro(Math.round(vdcPriceCents({ cpu: 16, ram: 64, storage: 1000, ipv4: 4, months: 12 }) / 12))));
  });

  it('moves each slider by the steps of VDC_LIMITS with the − and + buttons, and stops at the limits', async () => {
    renderShop();
    await screen.findByRole('heading', { name: 'Ressourcen-Pool' });
    expect(slider('vCPU-Kerne').step).toBe(String(VDC_LIMITS.cpu.step));
    expect(slider('Speicher (GB)').max).toBe(String(VDC_LIMITS.storage.max));
    expect((screen.getByRole('button', { name: 'vCPU-Kerne verringern' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'vCPU-Kerne erhöhen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Arbeitsspeicher (GB) erhöhen' }));
    fireEvent.click(screen.getByRole('button', { name: 'Speicher (GB) erhöhen' }));
    expect(slider('vCPU-Kerne').value).toBe('6');
    expect(slider('Arbeitsspeicher (GB)').value).toBe('16');
    expect(slider('Speicher (GB)').value).toBe('150');
    expect(slider('vCPU-Kerne').getAttribute('aria-valuetext')).toBe('6 Kerne');
    expect(total()).toBe(plain(formatEuro(vdcPriceCents({ cpu: 6, ram: 16, storage: 150, ipv4: 1, months: 1 }))));

    fireEvent.change(slider('Öffentliche IPv4-Adressen'), { target: { value: String(VDC_LIMITS.ipv4.max) } });
    expect((screen.getByRole('button', { name: 'Öffentliche IPv4-Adressen erhöhen' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends the pool, term and name to the checkout once the terms are accepted', async () => {
    setToken('token');
    const calls = renderShop();
    await screen.findByRole('heading', { name: 'Ressourcen-Pool' });
    fireEvent.change(slider('vCPU-Kerne'), { target: { value: '8' } });
    fireEvent.change(slider('Laufzeit (Monate)'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Name des Virtual Data Centers (optional)'), { target: { value: 'Projekt Beta' } });

    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    expect(await screen.findByText('Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/shop/vdc/checkout')).toBe(false);

    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/shop/vdc/checkout')).toBe(true));
    expect(bodyOf(calls, '/api/shop/vdc/checkout')).toEqual({ cpu: 8, ram: 8, storage: 100, ipv4: 1, months: 3, acceptTerms: true, name: 'Projekt Beta' });
  });

  it('asks a visitor to sign in instead of ordering', async () => {
    const calls = renderShop();
    await screen.findByRole('heading', { name: 'Ressourcen-Pool' });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    const hint = (await screen.findAllByText('Bitte melden Sie sich an, um ein Virtual Data Center zu bestellen.')).find((el) => el.closest('[role="alert"]'))!;
    expect(within(hint.closest('[role="alert"]') as HTMLElement).getByRole('link', { name: /Zum Login/ }).getAttribute('href')).toBe('/login');
    expect(calls.some((c) => c.url === '/api/shop/vdc/checkout')).toBe(false);
  });

  it('a renewal starts from the pool\'s figures, cannot shrink it and sends the VDC\'s id instead of a name', async () => {
    setToken('token');
    const calls = renderShop(`/shop/vdc-request?renew=${VDC_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Virtual Data Center verlängern' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'Ressourcen-Pool' });
    expect(screen.getByText(renewalNote)).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByLabelText('Name des Virtual Data Centers (optional)')).toBeNull();
    expect(slider('vCPU-Kerne').value).toBe('8');
    expect(slider('Speicher (GB)').value).toBe('200');
    // The server refuses to shrink a pool: the sliders start at its figures.
    expect(slider('vCPU-Kerne').min).toBe('8');
    expect(slider('Arbeitsspeicher (GB)').min).toBe('16');
    expect(slider('Speicher (GB)').min).toBe('200');
    expect(slider('Öffentliche IPv4-Adressen').min).toBe('2');
    expect((screen.getByRole('button', { name: 'vCPU-Kerne verringern' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Davon belegen Ihre VMs: 7 Kerne, 10 GB RAM, 120 GB Speicher, 2 IPv4/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Arbeitsspeicher (GB) erhöhen' }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/shop/vdc/checkout')).toBe(true));
    expect(bodyOf(calls, '/api/shop/vdc/checkout')).toEqual({ cpu: 8, ram: 24, storage: 200, ipv4: 2, months: 1, acceptTerms: true, vdcId: VDC_ID });
  });

  it('says when no host has room for a new pool and offers no checkout', async () => {
    setToken('token');
    const calls = renderShop('/shop/vdc-request', { info: { ...shopInfo, available: false } });
    expect(await screen.findByText(noRoomNote)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Zur Kasse/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => c.url === '/api/shop/vdc/checkout')).toBe(false);
  });

  it('sends a visitor who wants to renew to the login first', async () => {
    renderShop(`/shop/vdc-request?renew=${VDC_ID}`);
    expect(await screen.findByText('Login-Seite')).toBeTruthy();
  });
});

describe('virtual data center shop: individual request (issue 25)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('asks a visitor to sign in and shows no form', async () => {
    renderShop();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: /Individuelle Anfrage/ }));
    const panel = await screen.findByRole('tabpanel');
    expect(within(panel).getByText(/Bitte melden Sie sich an, um eine individuelle Anfrage zu senden/)).toBeTruthy();
    expect(within(panel).getByRole('link', { name: /Zum Login/ })).toBeTruthy();
    expect(within(panel).queryByLabelText('Ihr Bedarf')).toBeNull();
  });

  it('checks the needs with the contract, opens the ticket and links to it', async () => {
    setToken('token');
    const calls = renderShop();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: /Individuelle Anfrage/ }));
    const needs = await screen.findByLabelText('Ihr Bedarf');
    fireEvent.change(needs, { target: { value: 'Mehr Kerne' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anfrage senden' }));
    expect(await screen.findByText('Bitte beschreiben Sie Ihren Bedarf in mindestens 20 Zeichen.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/vdc-requests')).toBe(false);

    fireEvent.change(needs, { target: { value: '128 vCPU, 512 GB RAM und 10 TB Speicher für Kubernetes' } });
    fireEvent.change(screen.getByLabelText('Budget (optional)'), { target: { value: '800 € im Monat' } });
    fireEvent.change(screen.getByLabelText('Telefon für Rückfragen (optional)'), { target: { value: '+49 30 123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anfrage senden' }));
    expect(await screen.findByText('Ihre Anfrage wurde als Ticket angelegt.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zum Ticket' }).getAttribute('href')).toBe(`/support/${TICKET_ID}`);
    expect(bodyOf(calls, '/api/vdc-requests')).toEqual({ needs: '128 vCPU, 512 GB RAM und 10 TB Speicher für Kubernetes', budget: '800 € im Monat', phone: '+49 30 123456' });
  });

  it('shows the server\'s German refusal', async () => {
    setToken('token');
    renderShop('/shop/vdc-request', { request: json({ error: { code: 'RATE_LIMITED', message: 'Sie haben bereits eine offene VDC-Anfrage.' } }, 409) });
    fireEvent.mouseDown(await screen.findByRole('tab', { name: /Individuelle Anfrage/ }));
    fireEvent.change(await screen.findByLabelText('Ihr Bedarf'), { target: { value: '128 vCPU, 512 GB RAM und 10 TB Speicher' } });
    fireEvent.click(screen.getByRole('button', { name: 'Anfrage senden' }));
    expect(await screen.findByText('Sie haben bereits eine offene VDC-Anfrage.')).toBeTruthy();
  });
});
