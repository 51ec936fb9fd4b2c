import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestGateway } from '../support/gateway';
import { http } from '../support/http';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface InventoryRoute {
  /** `GET /api/v1/payments/:reference`: the route-access catalog's form. */
  signature: string;
  method: string;
  /** The path template with `:param` placeholders. */
  path: string;
  params: string[];
}

/** Every merchant route (/api/v1) the running gateway documents, from the OpenAPI document it serves. */
export async function documentedMerchantRoutes(gateway: TestGateway): Promise<InventoryRoute[]> {
  const document = (await http(gateway.baseUrl, 'GET', '/api/docs.json')).body as { paths: Record<string, Record<string, unknown>> };
  const routes: InventoryRoute[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    if (!template.startsWith('/api/v1/')) continue;
    for (const method of METHODS) {
      if (!item[method]) continue;
      const path = template.replace(/\{([A-Za-z_]+)\}/g, ':$1');
      routes.push({ signature: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, params: [...template.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]) });
    }
  }
  return routes.sort((a, b) => a.signature.localeCompare(b.signature));
}

/**
 * The /api/v1 signatures of the route-access test's CATALOG. It is read as text: importing that
 * spec would register its tests in the importing file. A catalog entry this parser misses makes
 * the cross-check fail loudly, never pass silently.
 */
export function catalogMerchantRoutes(): string[] {
  const source = readFileSync(join(__dirname, '../route-access.e2e-spec.ts'), 'utf8');
  const start = source.indexOf('const CATALOG');
  const end = source.indexOf('\n};', start);
  if (start < 0 || end < 0) throw new Error('route-access.e2e-spec.ts has no CATALOG object');
  return [...source.slice(start, end).matchAll(/'((?:GET|POST|PUT|PATCH|DELETE) \/api\/v1\/[^']*)'/g)].map((m) => m[1]).sort();
}

/** Whether the running app routes this method and path (Fastify's own router). */
export function appRoutes(gateway: TestGateway, route: InventoryRoute): boolean {
  return gateway.app.getHttpAdapter().getInstance().hasRoute({ method: route.method as 'GET', url: route.path });
}
