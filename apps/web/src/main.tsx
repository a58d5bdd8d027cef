import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { setNonce } from 'get-nonce';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import './styles.css';

// zod compiles object parsers with new Function when eval is allowed; our CSP forbids eval, so tell zod
// up front instead of letting its probe trigger a CSP violation. Must run before any schema is built;
// zod keeps its configuration on this global (shared by every copy of zod), so no import is needed here.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

// The server puts a per-response style nonce here; libraries that inject <style> elements use it.
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
if (nonce && nonce !== '__CSP_NONCE__') setNonce(nonce);

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <BrowserRouter>
      <Providers>
        <AppRoutes />
      </Providers>
    </BrowserRouter>
  </StrictMode>
);

// Prerendered public pages are hydrated; the client shell (spa.html) renders from scratch.
if (container.hasChildNodes() && container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
