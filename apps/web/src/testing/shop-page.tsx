import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { GERMAN_CONSUMER_VIEW } from '@hp/contract';

// What the component tests of the shops share (cloud storage, virtual data center): a stubbed API that
// records each call, and the page rendered at a URL with a fresh query client. Only for tests.

export interface ApiCall { url: string; init?: RequestInit }

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The text with every kind of space as a plain one (formatEuro puts a no-break space before €). */
export const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

/** The JSON body of the first call to `url`. */
export const bodyOf = (calls: ApiCall[], url: string) => JSON.parse(String(calls.find((c) => c.url === url)!.init!.body)) as unknown;

/**
 * Stubs fetch: `answer` answers a request (a pending promise holds it back) or leaves it (undefined) to the
 * API's German 404. The tax view is a signed-in German consumer's unless `answer` gives another. Returns
 * the calls as they come.
 */
export function stubShopApi(answer: (url: string, init?: RequestInit) => Response | Promise<Response> | undefined): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: string, init?: RequestInit) => {
    calls.push({ url: input, init });
    const response = await answer(input, init);
    if (response) return response;
    if (input === '/api/shop/tax') return json({ ...GERMAN_CONSUMER_VIEW, signedIn: true });
    return json({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }, 404);
  }));
  return calls;
}

/** Renders `page` at `url` under the route `path`, beside a login page that says "Login-Seite". */
export function renderShopPage(path: string, page: ReactNode, url: string = path) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={page} />
          <Route path="/login" element={<p>Login-Seite</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
