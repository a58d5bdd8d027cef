import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import { readEnv } from '../api/src/env.ts';

const require = createRequire(import.meta.url);

// Company and data-center details and the web hosting subdomain base for the public pages come from the same configuration as the API (read at build time;
// `npm start` builds before serving).
const { company, dataCenter, hostingSubdomainBase } = readEnv();

/**
 * Lazy chunks of the public, prerendered pages (app/router.tsx `page()` on public routes, the shops of
 * app/product-views.ts, the toast host and the query cache): loaded while such a page hydrates.
 */
const HYDRATION_CHUNK_NAMES = ['query-provider', 'toaster', 'login', 'register', 'reset-password', 'verification', 'email-link', 'status', 'payment', 'changelog', 'changelog-entry', 'changelog-layout', 'domain-search-results', 'webhosting-redirect', 'webhosting-shop-page', 'domain-shop-page', 'storage-shop-page', 'vdc-shop-page'];
const HYDRATION_CHUNKS = new RegExp(`^assets/(${HYDRATION_CHUNK_NAMES.join('|')})-[\\w-]{8}\\.js$`);

/** A renamed page would silently get its preload list back: the client build fails instead. */
const hydrationChunksExist: Plugin = {
  name: 'hydration-chunks-exist',
  apply: 'build',
  generateBundle(options, bundle) {
    if (options.format !== 'es' || Object.keys(bundle).every((f) => !f.startsWith('assets/'))) return;
    const found = new Set(Object.keys(bundle).map((f) => HYDRATION_CHUNKS.exec(f)?.[1]));
    const missing = HYDRATION_CHUNK_NAMES.filter((name) => !found.has(name));
    if (missing.length) this.error(`HYDRATION_CHUNK_NAMES names chunks the build no longer makes: ${missing.join(', ')}`);
  },
};

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss(), hydrationChunksExist],
  // React Router's package exports only its development build; production builds use the smaller
  // production build that ships alongside it (same API, no dev-only warnings).
  resolve: mode === 'production' ? { alias: { 'react-router': require.resolve('react-router').replace(/development([/\\])index\.m?js$/, 'production$1index.mjs') } } : {},
  define: { __COMPANY__: JSON.stringify(company), __DATA_CENTER__: JSON.stringify(dataCenter), __HOSTING_SUBDOMAIN_BASE__: JSON.stringify(hostingSubdomainBase) },
  build: {
    target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600,
    // The entry page lists no <link rel=modulepreload>: on a slow line those scripts compete with the
    // stylesheet the first paint waits for (the page is prerendered and readable without them).
    // The chunks a prerendered public page loads while it hydrates (HYDRATION_CHUNKS) preload nothing either:
    // Vite's helper would add one <link rel=modulepreload> per import of the chunk while React hydrates,
    // and those preloads cost a phone more main-thread time than they save (Lighthouse, /shop/webhosting:
    // total blocking time 607 → 286 ms, docs/decisions/039). The portal's chunks keep their lists: a
    // customer's first way from the login to the dashboard takes about 2.0 s with them and 2.8 s without
    // (4× CPU, 150 ms round trips).
    modulePreload: { resolveDependencies: (file, deps, { hostType }) => (hostType === 'html' || HYDRATION_CHUNKS.test(file) ? [] : deps) },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
}));
