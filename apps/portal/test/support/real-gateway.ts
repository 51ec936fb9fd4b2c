import { createApiApp } from '@gateway/api';
import { UsersService } from '@gateway/domain/identity';
import { ManualClock } from '@gateway/platform';
import { testConfig } from '@gateway/platform/testing';
import { PortalClient, provisionAccount, PORTAL_PASSWORD, type PortalAccount } from '../../../api-e2e/src/support/portal-client';
import type { TestGateway } from '../../../api-e2e/src/support/gateway';

export { PORTAL_PASSWORD, PortalClient, type PortalAccount, type TestGateway };

/**
 * The real API on this run's fresh test database (the portal's jest globalSetup creates it), booted
 * the way apps/api-e2e boots it, with a signed-in platform admin who provisions accounts over HTTP.
 */
export async function startRealGateway(): Promise<{ gateway: TestGateway; provision: (options?: { identityVerified?: boolean }) => Promise<PortalAccount> }> {
  const config = testConfig();
  const clock = new ManualClock(new Date());
  const app = await createApiApp({ config, databaseUrl: config.database.url as string, clock, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.getHttpServer().address() as { port: number };
  const gateway: TestGateway = { app, baseUrl: `http://127.0.0.1:${port}`, clock, close: () => app.close() };

  const adminEmail = `portal-admin-${Date.now()}@example.com`;
  await app.get(UsersService, { strict: false }).createPlatformUser({ email: adminEmail, name: 'Staff', password: PORTAL_PASSWORD, platformRole: 'admin' });
  const admin = new PortalClient(gateway.baseUrl);
  const login = await admin.login(adminEmail);
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${login.text}`);
  return { gateway, provision: (options) => provisionAccount(gateway, admin, options) };
}
