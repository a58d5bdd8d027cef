import './zod-jitless.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { setNonce } from 'get-nonce';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import './styles.css';

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

// Prerendered public pages are hydrated; the client shell (spa.html) renders from scratch. Hydrating in a
// transition lets React yield to the browser every few milliseconds instead of blocking it for the whole
// page (a long task of several hundred milliseconds on a slow phone); the page is already visible meanwhile.
if (container.hasChildNodes() && container.firstElementChild) startTransition(() => { hydrateRoot(container, app); });
else createRoot(container).render(app);
