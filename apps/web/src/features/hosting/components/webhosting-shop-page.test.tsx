// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
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
