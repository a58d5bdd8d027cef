// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { hostingMessages, type HostingShopInfo } from '@hp/contract';
import { json, renderShopPage, stubShopApi } from '../../../testing/shop-page.tsx';
import WebhostingShopPage from './webhosting-shop-page.tsx';

describe('web hosting shop, prerendered', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('serves the order form disabled, as a hydration boundary of its own (decision 040)', () => {
    // Set by Vite's `define` in the build (the configured subdomain base).
    vi.stubGlobal('__HOSTING_SUBDOMAIN_BASE__', 'kunden.example.de');
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/shop/webhosting']}><WebhostingShopPage /></MemoryRouter>
      </QueryClientProvider>,
    );
    // React hydrates the page around the form first; react-hook-form's synchronous re-render on mounting then
    // runs with the form's own effects only, not with every effect of the page.
    expect(html).toMatch(/<!--\$--><form[^>]*><fieldset[^>]* disabled=""/);
    expect(html).toContain('Jetzt bestellen');
  });
});

describe('web hosting shop, the order form', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a field error after a failed order, clears it once the input is valid, and the summary follows the choices', async () => {
    vi.stubGlobal('__HOSTING_SUBDOMAIN_BASE__', 'kunden.example.de');
    const info: HostingShopInfo = { subdomainBase: 'kunden.example.de', available: true, renewal: null };
    stubShopApi((url) => (url === '/api/shop/webhosting' ? json(info) : undefined));
    renderShopPage('/shop/webhosting', <WebhostingShopPage />);
    const subdomain = await screen.findByLabelText('Subdomain');
    fireEvent.change(subdomain, { target: { value: 'Nicht gültig!' } });
    fireEvent.click(screen.getByRole('button', { name: /Jetzt bestellen/ }));
    expect(await screen.findByText(hostingMessages.subdomainInvalid)).toBeTruthy();
    fireEvent.change(subdomain, { target: { value: 'meine-firma' } });
    await waitFor(() => expect(screen.queryByText(hostingMessages.subdomainInvalid)).toBeNull());
    expect(screen.getByText('meine-firma.kunden.example.de', { selector: 'dd' })).toBeTruthy();
    fireEvent.change(subdomain, { target: { value: '-falsch' } });
    expect(await screen.findByText(hostingMessages.subdomainInvalid)).toBeTruthy();
  });
});
