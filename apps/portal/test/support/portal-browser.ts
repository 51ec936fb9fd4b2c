import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../api-e2e/src/support/chromium';
import { loadVite, portalBuild, VITE_CONFIG } from './portal-build';
import { PORTAL_PASSWORD, type PortalAccount, type RealGatewayOptions, type SimulatorAccess, startRealGateway, type TestGateway } from './real-gateway';

export interface PortalInBrowser {
  gateway: TestGateway;
  provision: (options?: { identityVerified?: boolean }) => Promise<PortalAccount>;
  browser: Browser;
  portalUrl: string;
  /** With `providerSimulator: true`. */
  simulator?: SimulatorAccess;
  close: () => Promise<void>;
}

/**
 * The set-up of the portal's real-API browser specs: the real API on this run's fresh
 * database, the run's `vite build` (portal-build.ts) served by `vite preview` proxying /api to it, and
 * Debian's Chromium (never downloaded).
 */
export async function startPortalInBrowser(options: RealGatewayOptions = {}): Promise<PortalInBrowser> {
  const { gateway, provision, simulator } = await startRealGateway(options);
  const outDir = await portalBuild();
  const target = { target: gateway.baseUrl };
  const previewServer = await loadVite().preview({
    configFile: VITE_CONFIG,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: true, proxy: { '/api': target, '/health': target, '/ready': target } },
  });
  const portalUrl = `http://127.0.0.1:${(previewServer.httpServer.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const close = async () => {
    await browser.close();
    await previewServer.close();
    await gateway.close();
  };
  return { gateway, provision, browser, portalUrl, simulator, close };
}

/** Opens `hash` (e.g. `#/team`), signs in on the page it redirects to, and waits for the page's heading. */
export async function signInTo(page: Page, portalUrl: string, hash: string, email: string, heading: string): Promise<void> {
  await page.goto(`${portalUrl}/${hash}`);
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(PORTAL_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/**
 * `newPage()` for a spec's tests: a 1280 × 900 page of the portal's browser, in its own context
 * (its own cookies, so two people can be signed in at once), with a 15 s default timeout. Every page a test opened is closed after it, and an uncaught error in any of them
 * fails that test. Call it in the `describe` body; `portal` is read when a page is opened.
 */
export function openPages(portal: () => PortalInBrowser, options: { locale?: string } = {}): () => Promise<Page> {
  let pages: Page[] = [];
  let pageErrors: string[] = [];
  afterEach(async () => {
    await Promise.all(pages.map((page) => page.close()));
    pages = [];
    const errors = pageErrors;
    pageErrors = [];
    expect(errors).toEqual([]);
  });
  return async () => {
    const page = await portal().browser.newPage({ viewport: { width: 1280, height: 900 }, ...options });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    pages.push(page);
    return page;
  };
}

/** A secret test key of the account named `name`, created through the portal API; its secret. */
export async function createSecretKey(account: PortalAccount, name: string): Promise<string> {
  const created = await account.owner.post('/api/portal/keys', { body: { name } });
  expect(created.status).toBe(201);
  return created.body.data.secret as string;
}
