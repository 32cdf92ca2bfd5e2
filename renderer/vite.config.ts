import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is one static page served from `app://` inside Electron and from the web host in a
// browser, so every asset URL is relative and no script is inlined (CSP `script-src 'self'`).
// `npm run dev` serves it with hot reload; AETHER_HOST (e.g. http://127.0.0.1:4873) proxies the
// panel socket to a running `aether serve`.

const host = process.env['AETHER_HOST'];

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    // Chromium supports module preload natively; the polyfill would be one more script to vet.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2023',
    chunkSizeWarningLimit: 1024,
  },
  // The highlighting worker loads shiki's languages on demand, which needs an ES module worker.
  worker: { format: 'es' },
  server: host ? { proxy: { '/api': { target: host, ws: true } } } : {},
});
