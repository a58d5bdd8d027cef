import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { Providers } from '../app/providers.tsx';
import { AppRoutes } from '../app/router.tsx';
import { HeadContext, type HeadCollector } from '../components/page-meta.tsx';

/** Renders a route to HTML, waiting for lazy pages so their content is in the static HTML. */
export async function render(url: string) {
  const head: HeadCollector = {};
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <HeadContext.Provider value={head}>
        <StaticRouter location={url}>
          <Providers>
            <AppRoutes />
          </Providers>
        </StaticRouter>
      </HeadContext.Provider>
    </StrictMode>,
    // Never split boundaries into out-of-line chunks: revealing them needs inline scripts, which the CSP forbids.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk as Uint8Array);
  return { html, head };
}
