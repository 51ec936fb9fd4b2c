import { RequestMethod } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { type Scope, SCOPE_NAMES } from '@gateway/contracts';
import { IdempotencyGuard } from '@gateway/api';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';
import { createMerchant } from './support/merchants';

/**
 * The access catalog: every merchant route and the one scope it needs. Routes under
 * /api/portal are for people (session + CSRF, tested in the portal suites) and must be public
 * to the API-key guard.
 */
const CATALOG: Record<string, Scope | 'public'> = {
  'GET /health': 'public',
  'GET /ready': 'public',
  'POST /api/v1/customers': 'customers:write',
  'GET /api/v1/customers': 'customers:read',
  'GET /api/v1/customers/:ref': 'customers:read',
  'POST /api/v1/webhooks': 'webhooks:manage',
  'GET /api/v1/webhooks': 'webhooks:read',
  'POST /api/v1/webhooks/test': 'webhooks:manage',
  'POST /api/v1/webhooks/logs/:log_id/retry': 'webhooks:manage',
  'GET /api/v1/webhooks/:id/logs': 'webhooks:read',
  'GET /api/v1/webhooks/:id': 'webhooks:read',
  'POST /api/v1/webhooks/:id/enable': 'webhooks:manage',
  'POST /api/v1/webhooks/:id/replay': 'webhooks:manage',
  'PATCH /api/v1/webhooks/:id': 'webhooks:manage',
  'DELETE /api/v1/webhooks/:id': 'webhooks:manage',
  'GET /api/v1/customers/:ref/payments': 'customers:read',
  'POST /api/v1/payments/initialize': 'payments:write',
  'POST /api/v1/payments/verify': 'payments:write',
  'POST /api/v1/payments/preview': 'payments:read',
  'POST /api/v1/refunds': 'refunds:write',
  'POST /api/v1/payment-intents': 'payment_intents:write',
  'GET /api/v1/payment-intents/:reference': 'payment_intents:read',
  'POST /api/v1/payment-intents/:reference/capture': 'payment_intents:write',
  'POST /api/v1/payment-intents/:reference/cancel': 'payment_intents:write',
  'POST /api/v1/sandbox/scans/payment-intent-expiry/run': 'sandbox:write',
  'GET /api/v1/refunds': 'refunds:read',
  'GET /api/v1/refunds/:reference': 'refunds:read',
  'GET /api/v1/disputes': 'disputes:read',
  'GET /api/v1/disputes/:reference': 'disputes:read',
  'PATCH /api/v1/disputes/:reference': 'disputes:write',
  'POST /api/v1/sandbox/payments/:reference/dispute': 'sandbox:write',
  'POST /api/v1/sandbox/disputes/:reference/resolve': 'sandbox:write',
  'POST /api/v1/payments/charge': 'payments:write',
  'POST /api/v1/payments/bulk': 'payments:write',
  'GET /api/v1/payments/bulk/:batch_ref': 'payments:read',
  'DELETE /api/v1/payments/:reference/schedule': 'payments:write',
  'POST /api/v1/sandbox/scans/scheduled-charges/run': 'sandbox:write',
  'GET /api/v1/payments': 'payments:read',
  'GET /api/v1/payments/:reference': 'payments:read',
  'POST /api/v1/sandbox/payments/:reference/complete': 'sandbox:write',
  'POST /api/v1/sandbox/scans/abandoned-payments/run': 'sandbox:write',
  'GET /checkout/:reference': 'public',
  'GET /checkout/holds/:reference': 'public',
  'POST /api/provider/webhooks': 'public',
  'GET /api/v1/wallet/balance': 'wallet:read',
  'GET /api/v1/wallet/ledger': 'wallet:read',
  'GET /api/v1/wallet/ledger/verify': 'wallet:read',
  'GET /api/v1/wallet/settlements': 'wallet:read',
  'GET /api/v1/wallet/settlements/:reference': 'wallet:read',
  'POST /api/v1/subaccounts': 'subaccounts:write',
  'GET /api/v1/subaccounts': 'subaccounts:read',
  'GET /api/v1/subaccounts/:code': 'subaccounts:read',
  'POST /api/v1/transfers': 'transfers:write',
  'GET /api/v1/transfers': 'transfers:read',
  'GET /api/v1/transfers/:reference': 'transfers:read',
  'POST /api/v1/transfers/bulk': 'transfers:write',
  'GET /api/v1/transfers/bulk/:batch_reference': 'transfers:read',
  'POST /api/v1/transfers/recipients': 'transfers:write',
  'GET /api/v1/transfers/recipients': 'transfers:read',
  'GET /api/v1/banks': 'transfers:read',
  'POST /api/v1/virtual-accounts': 'virtual_accounts:write',
  'GET /api/v1/virtual-accounts': 'virtual_accounts:read',
  'GET /api/v1/virtual-accounts/:id': 'virtual_accounts:read',
  'POST /api/v1/virtual-accounts/:id/deactivate': 'virtual_accounts:write',
  'GET /api/v1/virtual-accounts/:id/deposits': 'virtual_accounts:read',
  'POST /api/v1/sandbox/virtual-accounts/:id/deposits': 'sandbox:write',
  'GET /api/v1/sandbox/clock': 'sandbox:write',
  'POST /api/v1/sandbox/clock/advance': 'sandbox:write',
  'POST /api/v1/sandbox/clock/reset': 'sandbox:write',
  'POST /api/v1/subscriptions/plans': 'subscriptions:write',
  'GET /api/v1/subscriptions/plans': 'subscriptions:read',
  'GET /api/v1/subscriptions/plans/:id': 'subscriptions:read',
  'PATCH /api/v1/subscriptions/plans/:id': 'subscriptions:write',
  'POST /api/v1/subscriptions/plans/:id/archive': 'subscriptions:write',
  'POST /api/v1/subscriptions': 'subscriptions:write',
  'GET /api/v1/subscriptions': 'subscriptions:read',
  'GET /api/v1/subscriptions/:id': 'subscriptions:read',
  'POST /api/v1/subscriptions/:id/pause': 'subscriptions:write',
  'POST /api/v1/subscriptions/:id/resume': 'subscriptions:write',
  'POST /api/v1/subscriptions/:id/cancel': 'subscriptions:write',
  'POST /api/v1/invoices': 'invoices:write',
  'GET /api/v1/invoices': 'invoices:read',
  'GET /api/v1/invoices/:reference': 'invoices:read',
  'PATCH /api/v1/invoices/:reference': 'invoices:write',
  'DELETE /api/v1/invoices/:reference': 'invoices:write',
  'POST /api/v1/exports': 'exports:write',
  'GET /api/v1/exports': 'exports:read',
  'GET /api/v1/exports/:reference': 'exports:read',
  'GET /api/v1/exports/:reference/download': 'exports:read',
  'GET /api/v1/analytics/summary': 'analytics:read',
  'GET /api/v1/analytics/timeseries': 'analytics:read',
  'GET /api/v1/analytics/top-customers': 'analytics:read',
  'GET /api/v1/events': 'events:read',
  'GET /api/v1/request-logs': 'request_logs:read',
  'GET /api/v1/requests/:request_id': 'requests:read',
  'GET /checkout/invoices/:token': 'public',
  'GET /checkout/invoices/:token/pay': 'public',
};

/** Routes that move real money: a test key is refused (403 live_mode_required) before its scope is looked at. */
const LIVE_ONLY = new Set(['POST /api/v1/transfers', 'GET /api/v1/transfers', 'GET /api/v1/transfers/:reference', 'POST /api/v1/transfers/recipients', 'GET /api/v1/transfers/recipients',
  'POST /api/v1/transfers/bulk', 'GET /api/v1/transfers/bulk/:batch_reference']);

interface Route {
  method: string;
  path: string;
  guards: unknown[];
  interceptors: unknown[];
}

/** Every route Nest registered, from controller metadata (the same source the router uses). */
function registeredRoutes(gateway: TestGateway): Route[] {
  const routes: Route[] = [];
  for (const module of gateway.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new () => object) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '').replace(/^\/|\/$/g, '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        // Read descriptors, not values: a getter on the prototype must not run.
        const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as unknown;
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '').replace(/^\/|\/$/g, '');
        const local = [base, sub].filter(Boolean).join('/');
        const unprefixed = local === 'health' || local === 'ready' || local.startsWith('api/') || local.startsWith('checkout/');
        routes.push({
          method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
          path: `/${unprefixed ? local : `api/v1/${local}`}`,
          guards: (Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [],
          interceptors: (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [],
        });
      }
    }
  }
  return routes;
}

const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, 'does-not-exist');

describe('every route is authenticated and scoped as the catalog says', () => {
  let gateway: TestGateway;
  let routes: Route[];
  beforeAll(async () => {
    gateway = await startGateway();
    routes = registeredRoutes(gateway);
  });
  afterAll(() => gateway.close());

  it('registers exactly the catalogued merchant routes (portal routes aside)', () => {
    const merchantRoutes = routes.filter((r) => !r.path.startsWith('/api/portal')).map((r) => `${r.method} ${r.path}`);
    expect(merchantRoutes.sort()).toEqual(Object.keys(CATALOG).sort());
  });

  it('takes an idempotency key on every mutating merchant route, and adds no guard or interceptor to reads', () => {
    for (const route of routes.filter((r) => r.path.startsWith('/api/v1/'))) {
      const mutating = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) && CATALOG[`${route.method} ${route.path}`] !== 'public';
      expect([route.method, route.path, route.guards, route.interceptors]).toEqual([route.method, route.path, mutating ? [IdempotencyGuard] : [], []]);
    }
  });

  it('documents every merchant route in the OpenAPI document, with its responses and the bearer key', async () => {
    const doc = (await http(gateway.baseUrl, 'GET', '/api/docs.json')).body as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown>; security?: unknown[] }>>;
    };
    const missing: string[] = [];
    for (const [signature, scope] of Object.entries(CATALOG)) {
      const [method, path] = signature.split(' ');
      if (!path.startsWith('/api/v1/')) continue;
      const operation = doc.paths[path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!operation) missing.push(signature);
      else {
        expect([signature, Object.keys(operation.responses ?? {}).length > 1]).toEqual([signature, true]);
        if (scope !== 'public') expect([signature, operation.security?.length ?? 0]).not.toEqual([signature, 0]);
      }
    }
    expect(missing).toEqual([]);
  });

  it('refuses every non-public route without a key, and serves public ones', async () => {
    // Portal routes answer with their own session checks; the portal suites cover them.
    for (const route of routes.filter((r) => !r.path.startsWith('/api/portal'))) {
      const res = await http(gateway.baseUrl, route.method, concrete(route.path));
      const expected = CATALOG[`${route.method} ${route.path}`];
      if (expected === 'public') {
        expect([route.path, res.status]).not.toEqual([route.path, 401]);
        expect(res.body?.code).not.toBe('authentication_failed');
      } else {
        expect([route.path, res.status, res.body?.code]).toEqual([route.path, 401, 'authentication_failed']);
      }
    }
  });

  it('refuses a key without the route scope with 403 insufficient_scope naming it, and admits one with it', async () => {
    for (const [signature, scope] of Object.entries(CATALOG)) {
      if (scope === 'public') continue;
      const [method, path] = signature.split(' ');
      const otherScope = SCOPE_NAMES.find((s) => s !== scope) as Scope;
      const keyMode = LIVE_ONLY.has(signature) ? ({ mode: 'live', identityVerified: true } as const) : {};
      const without = await createMerchant(gateway, { ...keyMode, scopes: [otherScope] });
      const refused = await http(gateway.baseUrl, method, concrete(path), { token: without.key, body: method === 'GET' ? undefined : {} });
      expect([signature, refused.status, refused.body.code]).toEqual([signature, 403, 'insufficient_scope']);
      expect(refused.body.message).toContain(scope);

      const withScope = await createMerchant(gateway, { ...keyMode, scopes: [scope] });
      const admitted = await http(gateway.baseUrl, method, concrete(path), { token: withScope.key, body: method === 'GET' ? undefined : {} });
      expect([signature, [401, 403].includes(admitted.status)]).toEqual([signature, false]);
    }
  });

  it('refuses a test key on every live-only route with 403 live_mode_required, whatever its scopes', async () => {
    const full = await createMerchant(gateway);
    for (const signature of LIVE_ONLY) {
      const [method, path] = signature.split(' ');
      const refused = await http(gateway.baseUrl, method, concrete(path), { token: full.key, body: method === 'GET' ? undefined : {} });
      expect([signature, refused.status, refused.body.code]).toEqual([signature, 403, 'live_mode_required']);
    }
  });
});
