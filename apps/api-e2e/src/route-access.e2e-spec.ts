import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { type Scope, SCOPE_NAMES } from '@gateway/contracts';
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
};

interface Route {
  method: string;
  path: string;
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
        const unprefixed = local === 'health' || local === 'ready' || local.startsWith('api/portal');
        routes.push({
          method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
          path: `/${unprefixed ? local : `api/v1/${local}`}`,
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
      const without = await createMerchant(gateway, { scopes: [otherScope] });
      const refused = await http(gateway.baseUrl, method, concrete(path), { token: without.key, body: method === 'GET' ? undefined : {} });
      expect([signature, refused.status, refused.body.code]).toEqual([signature, 403, 'insufficient_scope']);
      expect(refused.body.message).toContain(scope);

      const withScope = await createMerchant(gateway, { scopes: [scope] });
      const admitted = await http(gateway.baseUrl, method, concrete(path), { token: withScope.key, body: method === 'GET' ? undefined : {} });
      expect([signature, [401, 403].includes(admitted.status)]).toEqual([signature, false]);
    }
  });
});
