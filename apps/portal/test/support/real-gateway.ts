import { createApiApp } from '@gateway/api';
import { UsersService } from '@gateway/domain/identity';
import { ManualClock } from '@gateway/platform';
import { testConfig } from '@gateway/platform/testing';
import { createProviderSimulator } from '@gateway/provider-sim';
import { randomBytes } from 'node:crypto';
import { PortalClient, provisionAccount, PORTAL_PASSWORD, type PortalAccount } from '../../../api-e2e/src/support/portal-client';
import type { TestGateway } from '../../../api-e2e/src/support/gateway';
import { startScheduler } from '../../../api-e2e/src/support/scheduler-process';

export { PORTAL_PASSWORD, PortalClient, type PortalAccount, type TestGateway };

export interface RealGatewayOptions {
  /** Start the provider simulator and point the gateway's provider (both modes) at it. */
  providerSimulator?: boolean;
  /** Extra configuration of the API (e.g. `LARGE_WITHDRAWAL_THRESHOLD`). */
  env?: Record<string, string>;
  /**
   * Run the real scheduler too (a child process, as apps/api-e2e runs it: cron scans and queue
   * workers, e.g. the exports worker) on the same database, provider and `env`, so files it writes
   * are the ones the API serves.
   */
  scheduler?: boolean;
}

/** The provider simulator behind the gateway, for what a test does as the provider (completing a live payment). */
export interface SimulatorAccess {
  url: string;
  liveSecretKey: string;
}

/**
 * The real API on this run's fresh test database (the portal's jest globalSetup creates it), booted
 * the way apps/api-e2e boots it, with a signed-in platform admin who provisions accounts over HTTP.
 */
export async function startRealGateway(
  options: RealGatewayOptions = {},
): Promise<{ gateway: TestGateway; provision: (options?: { identityVerified?: boolean }) => Promise<PortalAccount>; simulator?: SimulatorAccess }> {
  // Money pages need payments and refunds: the provider simulator answers the gateway's provider calls
  // over loopback, as in apps/api-e2e's payments harness.
  const secrets = { test: `sk_test_sim_${randomBytes(6).toString('hex')}`, live: `sk_live_sim_${randomBytes(6).toString('hex')}` };
  const sim = options.providerSimulator ? createProviderSimulator({ secretKeys: [secrets.test, secrets.live], transferDelayMs: 0 }) : undefined;
  const simUrl = sim ? await sim.listen() : undefined;
  const env: Record<string, string> = simUrl
    ? { PROVIDER_TEST_BASE_URL: simUrl, PROVIDER_LIVE_BASE_URL: simUrl, PROVIDER_TEST_SECRET_KEY: secrets.test, PROVIDER_LIVE_SECRET_KEY: secrets.live }
    : {};
  const config = testConfig({ ...env, ...options.env });
  const clock = new ManualClock(new Date());
  const app = await createApiApp({ config, databaseUrl: config.database.url as string, clock, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  sim?.setWebhookUrl(`${baseUrl}/api/provider/webhooks`);
  const scheduler = options.scheduler
    ? await startScheduler({ DATABASE_URL: config.database.url as string, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}), ...env, ...options.env })
    : undefined;
  const close = async () => {
    await scheduler?.stop();
    await sim?.idle();
    await app.close();
    await sim?.close();
  };
  const gateway: TestGateway = { app, baseUrl, clock, close };

  const adminEmail = `portal-admin-${Date.now()}@example.com`;
  await app.get(UsersService, { strict: false }).createPlatformUser({ email: adminEmail, name: 'Staff', password: PORTAL_PASSWORD, platformRole: 'admin' });
  const admin = new PortalClient(gateway.baseUrl);
  const login = await admin.login(adminEmail);
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${login.text}`);
  const simulator = simUrl ? { url: simUrl, liveSecretKey: secrets.live } : undefined;
  return { gateway, provision: (options) => provisionAccount(gateway, admin, options), simulator };
}
