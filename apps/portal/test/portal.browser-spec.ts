/**
 * Browser test of the built portal: `vite build` → `vite preview` (with the API paths proxied to a
 * stub API) → Chromium driven by playwright-core. Never downloads a browser: it needs the one
 * CHROMIUM_PATH names, by default Debian's /usr/bin/chromium (`apt-get install -y chromium`), and
 * fails loudly without it.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import type * as Vite from 'vite';
import { CHROMIUM_PATH, launchChromium } from '../../api-e2e/src/support/chromium';
import { loadVite, portalBuild, VITE_CONFIG } from './support/portal-build';

// ---- A stub of the gateway API's probes -------------------------------------------------------

/**
 * up: both probes answer; not-ready: /ready answers 503 service_unavailable; failing: both answer
 * 503 error envelopes; unreachable: connections are reset (the proxy then answers a bare 500).
 */
type StubMode = 'up' | 'not-ready' | 'failing' | 'unreachable';

interface ApiStub {
  url: string;
  mode: StubMode;
  requests: string[];
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function startApiStub(): Promise<ApiStub> {
  const stub = { mode: 'up' as StubMode, requests: [] as string[] };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    stub.requests.push(`${req.method} ${path}`);
    const unavailable = (message: string) =>
      sendJson(res, 503, { success: false, code: 'service_unavailable', message });

    if (stub.mode === 'unreachable') {
      req.socket.destroy();
      return;
    }
    if (path === '/health') {
      if (stub.mode === 'failing') return unavailable('The API is shutting down.');
      return sendJson(res, 200, { success: true, data: { status: 'ok' } });
    }
    if (path === '/ready') {
      if (stub.mode === 'failing') return unavailable('The database is not reachable.');
      if (stub.mode === 'not-ready') return unavailable('Database migrations are pending.');
      return sendJson(res, 200, { success: true, data: { status: 'ready' } });
    }
    return sendJson(res, 404, { success: false, code: 'not_found', message: `No route ${req.method} ${path}.` });
  });
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;

  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
        server.closeAllConnections();
      }),
  });
}

// ---- Suite ------------------------------------------------------------------------------------

describe('portal in a browser (vite build + vite preview + Chromium)', () => {
  let stub: ApiStub | undefined;
  let previewServer: Vite.PreviewServer | undefined;
  let browser: Browser | undefined;
  let portalUrl = '';
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(
        `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package with ` +
          '`apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable (this test never downloads a browser).',
      );
    }

    stub = await startApiStub();
    const outDir = await portalBuild();

    const proxyToStub = { target: stub.url };
    previewServer = await loadVite().preview({
      configFile: VITE_CONFIG,
      logLevel: 'silent',
      build: { outDir },
      preview: {
        host: '127.0.0.1',
        port: 0,
        strictPort: true,
        proxy: { '/api': proxyToStub, '/health': proxyToStub, '/ready': proxyToStub },
      },
    });
    const { port } = previewServer.httpServer.address() as AddressInfo;
    portalUrl = `http://127.0.0.1:${port}`;

    browser = await launchChromium();
  }, 300_000); // the spec that asks first makes the run's one build (support/portal-build.ts)

  afterAll(async () => {
    await browser?.close();
    await previewServer?.close();
    await stub?.close();
  });

  beforeEach(async () => {
    if (!browser || !stub) throw new Error('The browser test setup failed (see beforeAll).');
    stub.mode = 'up';
    stub.requests.length = 0;
    pageErrors = [];
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  const probe = (name: 'Liveness' | 'Readiness'): Locator => page.getByRole('region', { name });
  const probeState = (name: 'Liveness' | 'Readiness'): Locator => probe(name).locator('.probe-card__state');

  async function waitForState(name: 'Liveness' | 'Readiness', text: string): Promise<void> {
    await probeState(name).getByText(text, { exact: true }).waitFor();
  }

  async function waitForSummary(text: string): Promise<void> {
    await page.getByRole('status').filter({ hasText: text }).waitFor();
  }

  it('renders the shell: product name, landmarks, navigation and API docs links', async () => {
    await page.goto(`${portalUrl}/#/status`);

    // The status page needs no sign-in (the account pages do: see portal-session.browser-spec.ts).
    await page.getByRole('heading', { level: 1, name: 'API status' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/status');
    expect(await page.title()).toBe('API status · Gateway');

    expect(await page.getByRole('banner').textContent()).toContain('Gateway');
    const nav = page.getByRole('navigation', { name: 'Portal' });
    expect(await nav.getByRole('link', { name: 'API status' }).getAttribute('aria-current')).toBe('page');
    expect(await nav.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/docs');
    expect(await page.getByRole('banner').getByRole('link', { name: 'API docs' }).getAttribute('href')).toBe(
      '/api/docs',
    );
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('contentinfo').count()).toBe(1);
  });

  it('shows the API as up and ready, asking /health and /ready through the proxy', async () => {
    await page.goto(`${portalUrl}/#/status`);

    await waitForState('Liveness', 'Up');
    await waitForState('Readiness', 'Ready');
    await waitForSummary('The API is up and ready');
    expect(await probe('Liveness').textContent()).toContain('GET /health');
    expect(await probe('Readiness').textContent()).toContain('GET /ready');
    expect(stub?.requests).toEqual(expect.arrayContaining(['GET /health', 'GET /ready']));
  });

  it('shows the API as up but not ready, with the error envelope’s code and message', async () => {
    await page.goto(`${portalUrl}/#/status`);
    await waitForState('Readiness', 'Ready');

    if (stub) stub.mode = 'not-ready';
    await page.getByRole('button', { name: 'Check again' }).click();

    await waitForState('Readiness', 'Not ready');
    await waitForSummary('The API is up but not ready');
    expect(await probeState('Liveness').textContent()).toBe('Up');
    const readiness = await probe('Readiness').textContent();
    expect(readiness).toContain('service_unavailable');
    expect(readiness).toContain('HTTP 503');
    expect(readiness).toContain('Database migrations are pending.');
  });

  it('shows the API as down when the probes fail', async () => {
    if (stub) stub.mode = 'failing';
    await page.goto(`${portalUrl}/#/status`);

    await waitForState('Liveness', 'Down');
    await waitForState('Readiness', 'Not ready');
    await waitForSummary('The API is down');
    expect(await probe('Liveness').textContent()).toContain('The API is shutting down.');
  });

  it('shows the API as down when it cannot be reached, and as up again once it answers', async () => {
    if (stub) stub.mode = 'unreachable';
    await page.goto(`${portalUrl}/#/status`);

    await waitForState('Liveness', 'Down');
    await waitForSummary('The API is down');

    if (stub) stub.mode = 'up';
    await page.getByRole('button', { name: 'Check again' }).click();
    await waitForState('Liveness', 'Up');
    await waitForState('Readiness', 'Ready');
  });

  it('answers unknown portal routes with a not-found page linking back', async () => {
    await page.goto(`${portalUrl}/#/no-such-page`);

    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Go to the API status' }).click();
    await page.getByRole('heading', { level: 1, name: 'API status' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/status');
  });
});
