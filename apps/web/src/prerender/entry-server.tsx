import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { Providers } from '../app/providers.tsx';
import { AppRoutes } from '../app/router.tsx';
import { HeadContext, type HeadCollector } from '../components/page-meta.tsx';

export function render(url: string) {
  const head: HeadCollector = {};
  const html = renderToString(
    <StrictMode>
      <HeadContext.Provider value={head}>
        <StaticRouter location={url}>
          <Providers>
            <AppRoutes />
          </Providers>
        </StaticRouter>
      </HeadContext.Provider>
    </StrictMode>,
  );
  return { html, head };
}
