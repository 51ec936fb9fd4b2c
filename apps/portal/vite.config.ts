import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/**
 * The developer portal: a static React app. In development (`vite`) and preview (`vite preview`)
 * the API's routes are proxied to the gateway API, so the browser only ever talks to one origin.
 *
 * Environment:
 *  - PORTAL_PORT: port for the dev server and the preview server (default 4200);
 *  - API_URL: where the gateway API listens (default http://127.0.0.1:3000).
 */
const root = fileURLToPath(new URL('.', import.meta.url));

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 4200;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORTAL_PORT must be an integer between 0 and 65535, got "${value}".`);
  }
  return port;
}

const port = portFromEnv(process.env.PORTAL_PORT);
const apiUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';

/** The API's own paths: the versioned REST API and its docs under /api, plus the probes. */
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: apiUrl },
  '/health': { target: apiUrl },
  '/ready': { target: apiUrl },
};

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: '../../dist/apps/portal',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { host: '127.0.0.1', port, strictPort: true, proxy },
  preview: { host: '127.0.0.1', port, strictPort: true, proxy },
});
