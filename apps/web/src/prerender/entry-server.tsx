import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { Providers } from '../app/providers.tsx';
import { AppRoutes } from '../app/router.tsx';
import { INITIAL_DATA_ID, seedQueries, serializeInitialData, ServerQueryClient, type InitialQuery } from '../app/initial-data.ts';
import { HeadContext, type HeadCollector } from '../components/page-meta.tsx';

export type { InitialQuery };

/**
 * Renders a route to HTML, waiting for lazy pages so their content is in the static HTML. With `queries`
 * (server rendering at request time, decision 016) the page renders from that data, with its own cache.
 */
export async function render(url: string, queries?: readonly InitialQuery[]) {
  const head: HeadCollector = {};
  let client: QueryClient | null = null;
  if (queries) {
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
    seedQueries(client, queries);
  }
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <ServerQueryClient.Provider value={client}>
        <HeadContext.Provider value={head}>
          <StaticRouter location={url}>
            <Providers>
              <AppRoutes />
            </Providers>
          </StaticRouter>
        </HeadContext.Provider>
      </ServerQueryClient.Provider>
    </StrictMode>,
    // Never split boundaries into out-of-line chunks: revealing them needs inline scripts, which the CSP forbids.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk as Uint8Array);
  client?.clear();
  return { html, head };
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const defaultDescription = 'Root Server, Webhosting und Cloud-Speicher aus Frankfurt am Main.';

/**
 * The whole document: the built index.html with the page, its title and description, and — when the
 * page was rendered from data — that data as a JSON block (type application/json: not executed, so the
 * CSP, which forbids inline scripts, allows it) for the client to hydrate from.
 */
export async function renderDocument(template: string, url: string, queries?: readonly InitialQuery[]) {
  const { html, head } = await render(url, queries);
  let page = template.replace('<!--app-->', html);
  if (head.title) page = page.replace(/<title>.*?<\/title>/, `<title>${escape(head.title)}</title>`);
  page = page.replace('<!--head-->', `<meta name="description" content="${escape(head.description ?? defaultDescription)}" />`);
  if (queries) page = page.replace('</body>', `<script type="application/json" id="${INITIAL_DATA_ID}">${serializeInitialData(queries)}</script></body>`);
  return page;
}

/** The query keys of the pages the server renders with data (decision 016): changelog and status. */
export { changelogKeys } from '../features/changelog/api/changelog.ts';
export { statusKeys } from '../features/status/api/status.ts';
