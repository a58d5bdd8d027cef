// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { formatEuro, GIB, shopMessages, storageMessages, storagePriceCents, storageUpgradeCents, type StorageShopInfo } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { bodyOf, json, plain, renderShopPage, stubShopApi } from '../../../testing/shop-page.tsx';
import StorageShopPage, { renewalNote } from './storage-shop-page.tsx';

const STORAGE_ID = '0b8c5f7e-2a4d-4c1e-9f3a-6d2e1c0b9a87';
const shopInfo: StorageShopInfo = { available: ['100gb', '500gb', '1tb', '5tb'], renewal: null };
const renewalInfo: StorageShopInfo = {
  available: ['100gb', '500gb', '1tb', '5tb'],
  renewal: { storageId: STORAGE_ID, accountName: 'mueller', plan: '1tb', expiresAt: '2027-01-15T00:00:00.000Z', remainingDays: 20, usedBytes: 600 * GIB, allowedPlans: ['1tb', '5tb', '10tb'] },
};

function renderShop(url = '/shop/cloud-storage', names: Record<string, { available: boolean; message: string | null }> = {}) {
  const calls = stubShopApi((input) => {
    if (input === '/api/shop/cloud-storage') return json(shopInfo);
    if (input === `/api/shop/cloud-storage/renewal/${STORAGE_ID}`) return json(renewalInfo);
    if (input.startsWith('/api/shop/cloud-storage/name/')) return json(names[decodeURIComponent(input.split('/').pop()!)] ?? { available: true, message: null });
    if (input === '/api/shop/cloud-storage/checkout') return json({ orderId: 'o1', sessionId: 's1', url: '/shop/payment?session=s1' }, 201);
    return undefined;
  });
  renderShopPage('/shop/cloud-storage', <StorageShopPage />, url);
  return calls;
}

const planRadio = (name: RegExp) => screen.getByRole('radio', { name });
const total = () => plain(screen.getByTestId('storage-total').textContent);

describe('cloud storage shop (issue 23)', () => {
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows each plan at its monthly price and the live total with the duration discount', async () => {
    renderShop();
    await screen.findByRole('heading', { name: 'Tarif' });
    const plan500 = planRadio(/^500 GB/).closest('label')!;
    expect(plain(plan500.textContent)).toContain(`${plain(formatEuro(599))} / Monat`);
    expect(total()).toBe(plain(formatEuro(299)));

    fireEvent.click(planRadio(/^500 GB/));
    fireEvent.click(screen.getByRole('button', { name: '12 Monate' }));
    expect(total()).toBe(plain(formatEuro(storagePriceCents({ plan: '500gb', months: 12 }))));
    expect(total()).toBe('61,10 €');
    expect(screen.getByText(/inkl\. 15 % Laufzeitrabatt/)).toBeTruthy();
  });

  it('is disabled in the prerendered page and takes choices once hydrated, so an early click is not silently undone', async () => {
    renderShop();
    cleanup();
    const page = () => (
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/shop/cloud-storage']}><StorageShopPage /></MemoryRouter>
      </QueryClientProvider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page());
    // The form is a hydration boundary of its own (decision 040): React hydrates the page around it first.
    expect(container.innerHTML).toMatch(/<!--\$--><form/);
    document.body.append(container);
    try {
      const radio = () => within(container).getByRole('radio', { name: /^500 GB/ }) as HTMLInputElement;
      const form = () => container.querySelector('form > fieldset') as HTMLFieldSetElement;
      // The HTML as served: a choice made now would be reset by hydration, and the button would post the bare form.
      expect(form().disabled).toBe(true);
      expect(radio().matches(':disabled')).toBe(true);
      const root = await act(async () => hydrateRoot(container, page()));
      await waitFor(() => expect(form().disabled).toBe(false));
      expect(radio().matches(':disabled')).toBe(false);
      fireEvent.click(radio());
      expect(radio().checked).toBe(true);
      act(() => root.unmount());
    } finally {
      container.remove();
    }
  });

  it('disables a plan no storage server has room for, with "derzeit ausgebucht"', async () => {
    renderShop();
    await screen.findByRole('heading', { name: 'Tarif' });
    const tenTb = planRadio(/^10 TB/) as HTMLInputElement;
    // The form is there at once (prerendered); the offer's availability follows.
    await waitFor(() => expect(tenTb.disabled).toBe(true));
    expect(within(tenTb.closest('label')!).getByText('derzeit ausgebucht')).toBeTruthy();
    expect((planRadio(/^5 TB/) as HTMLInputElement).disabled).toBe(false);
  });

  it('shows the form before the offer has loaded, then moves the choice off a plan that turns out booked out', async () => {
    let answer: (r: Response) => void = () => {};
    stubShopApi((input) => (input === '/api/shop/cloud-storage' ? new Promise<Response>((resolve) => { answer = resolve; }) : undefined));
    renderShopPage('/shop/cloud-storage', <StorageShopPage />);
    expect(screen.queryByText('Lade Angebot …')).toBeNull();
    expect((planRadio(/^100 GB/) as HTMLInputElement).checked).toBe(true);
    answer(json({ ...shopInfo, available: ['500gb', '1tb'] }));
    await waitFor(() => expect((planRadio(/^100 GB/) as HTMLInputElement).disabled).toBe(true));
    await waitFor(() => expect((planRadio(/^500 GB/) as HTMLInputElement).checked).toBe(true));
  });

  it('shows the server\'s message at the account name field when the name is taken, and asks nothing for an invalid one', async () => {
    setToken('token');
    const calls = renderShop('/shop/cloud-storage', { mueller: { available: false, message: storageMessages.accountNameTaken } });
    const field = await screen.findByLabelText('Kontoname');

    fireEvent.change(field, { target: { value: '1x' } });
    expect(await screen.findByText(storageMessages.accountNameInvalid)).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/name/'))).toBe(false);

    fireEvent.change(field, { target: { value: 'Mueller' } });
    const alert = await screen.findByText(storageMessages.accountNameTaken);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.url.includes('/name/')).map((c) => c.url)).toEqual(['/api/shop/cloud-storage/name/mueller']);

    fireEvent.change(field, { target: { value: 'mueller2' } });
    expect(await screen.findByText('Der Kontoname ist frei.')).toBeTruthy();
    expect(screen.queryByText(storageMessages.accountNameTaken)).toBeNull();
  });

  it('refuses to order without the terms accepted: the German message at the box, which is marked invalid; nothing is sent', async () => {
    setToken('token');
    const calls = renderShop();
    fireEvent.change(await screen.findByLabelText('Kontoname'), { target: { value: 'mueller2' } });
    await screen.findByText('Der Kontoname ist frei.');
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(shopMessages.termsRequired);
    const box = screen.getByRole('checkbox');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(box.getAttribute('aria-describedby')).toBe(alert.id);
    expect(calls.some((c) => c.url === '/api/shop/cloud-storage/checkout')).toBe(false);
    expect((screen.getByLabelText('Kontoname') as HTMLInputElement).value).toBe('mueller2');
  });

  it('sends a new account\'s plan, term and name to the checkout', async () => {
    setToken('token');
    const calls = renderShop();
    fireEvent.change(await screen.findByLabelText('Kontoname'), { target: { value: 'mueller2' } });
    await screen.findByText('Der Kontoname ist frei.');
    fireEvent.click(planRadio(/^1 TB/));
    fireEvent.click(screen.getByRole('button', { name: '3 Monate' }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/shop/cloud-storage/checkout')).toBe(true));
    const body = bodyOf(calls, '/api/shop/cloud-storage/checkout');
    expect(body).toEqual({ plan: '1tb', months: 3, acceptTerms: true, accountName: 'mueller2' });
  });

  it('a renewal offers only the plans the files fit in, keeps the name and says when the new plan applies', async () => {
    setToken('token');
    const calls = renderShop(`/shop/cloud-storage?renew=${STORAGE_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Cloud-Speicher verlängern' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'Tarif' });
    for (const name of [/^100 GB/, /^500 GB/]) {
      const radio = planRadio(name) as HTMLInputElement;
      expect(radio.disabled).toBe(true);
      expect(within(radio.closest('label')!).getByText('zu klein für Ihre Dateien')).toBeTruthy();
    }
    for (const name of [/^1 TB/, /^5 TB/, /^10 TB/]) expect((planRadio(name) as HTMLInputElement).disabled).toBe(false);
    expect((planRadio(/^1 TB/) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Kontoname')).toBeNull();
    expect(screen.getAllByText(renewalNote).length).toBeGreaterThan(0);

    // The same plan adds nothing; a larger one costs the difference for the 20 days left.
    await waitFor(() => expect(total()).toBe(plain(formatEuro(storagePriceCents({ plan: '1tb', months: 1 })))));
    fireEvent.click(planRadio(/^5 TB/));
    const extra = storageUpgradeCents('1tb', '5tb', 20);
    expect(extra).toBe(Math.round(((3499 - 999) * 20) / 30));
    await waitFor(() => expect(total()).toBe(plain(formatEuro(storagePriceCents({ plan: '5tb', months: 1 }) + extra))));
    expect(plain(screen.getByText(/Aufpreis für die restlichen 20 Tage/).textContent)).toContain(plain(formatEuro(extra)));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Zur Kasse/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/shop/cloud-storage/checkout')).toBe(true));
    const body = bodyOf(calls, '/api/shop/cloud-storage/checkout');
    expect(body).toEqual({ plan: '5tb', months: 1, acceptTerms: true, storageId: STORAGE_ID });
  });

  it('sends a visitor who wants to renew to the login first', async () => {
    renderShop(`/shop/cloud-storage?renew=${STORAGE_ID}`);
    expect(await screen.findByText('Login-Seite')).toBeTruthy();
  });
});
