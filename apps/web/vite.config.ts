import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readEnv } from '../api/src/env.ts';

// Company details for the legal pages come from the same configuration as the API (read at build time;
// `npm start` builds before serving).
const company = readEnv().company;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: { __COMPANY__: JSON.stringify(company) },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:5000' } },
});
