import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { createRequire } from 'node:module';
import { readEnv } from '../api/src/env.ts';

const require = createRequire(import.meta.url);

// Company and data-center details and the web hosting subdomain base for the public pages come from the same configuration as the API (read at build time;
// `npm start` builds before serving).
const { company, dataCenter, hostingSubdomainBase } = readEnv();

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss()],
  // React Router's package exports only its development build; production builds use the smaller
  // production build that ships alongside it (same API, no dev-only warnings).
  resolve: mode === 'production' ? { alias: { 'react-router': require.resolve('react-router').replace(/development([/\\])index\.m?js$/, 'production$1index.mjs') } } : {},
  define: { __COMPANY__: JSON.stringify(company), __DATA_CENTER__: JSON.stringify(dataCenter), __HOSTING_SUBDOMAIN_BASE__: JSON.stringify(hostingSubdomainBase) },
  build: {
    target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600,
    // The entry page lists no <link rel=modulepreload>: on a slow line those scripts compete with the
    // stylesheet the first paint waits for (the page is prerendered and readable without them). Lazy
    // chunks still preload their own imports when the app loads them.
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps) },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
}));
