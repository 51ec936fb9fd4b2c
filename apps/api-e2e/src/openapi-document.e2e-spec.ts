import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { type TestGateway, startGateway } from './support/gateway';
import { http } from './support/http';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const CLIENT_FIXTURE = join(ROOT, 'apps/api-e2e/fixtures/typed-client.fixture.ts');

/**
 * The Redocly findings we accept, each for a reason that is not a gap in the document. Anything
 * else Redocly's recommended ruleset reports, error or warning, fails the test.
 */
const ACCEPTED_LINT_FINDINGS = {
  // GET /payments/bulk/{batch_ref} and DELETE /payments/{reference}/schedule (both fixed by the spec)
  // would both match /payments/bulk/schedule, but never for the same method.
  // GET/PATCH /subscriptions/plans/{id} and POST /subscriptions/{id}/pause|resume|cancel (plans live
  // under the spec's /subscriptions/plans/) would both match /subscriptions/plans/pause, but never for the same method.
  'no-ambiguous-paths': [
    '#/paths/~1api~1v1~1payments~1{reference}~1schedule',
    '#/paths/~1api~1v1~1subscriptions~1{id}~1pause',
    '#/paths/~1api~1v1~1subscriptions~1{id}~1resume',
    '#/paths/~1api~1v1~1subscriptions~1{id}~1cancel',
  ],
  // Probes take no input, key or rate limit: no 4xx answer exists to document.
  'operation-4xx-response': ['#/paths/~1health/get/responses', '#/paths/~1ready/get/responses'],
};

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; additionalProperties?: unknown; items?: Schema; allOf?: Schema[]; enum?: unknown[] };
type Operation = { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

describe('OpenAPI document: every field described from the DTOs, lint-clean, and typed for generated clients', () => {
  let gateway: TestGateway;
  let document: Document;
  let dir: string;
  beforeAll(async () => {
    gateway = await startGateway();
    document = (await http(gateway.baseUrl, 'GET', '/api/docs.json')).body;
    dir = mkdtempSync(join(tmpdir(), 'gateway-openapi-'));
    writeFileSync(join(dir, 'docs.json'), JSON.stringify(document, null, 2));
  });
  afterAll(async () => {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const operations = () => Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ signature: `${method.toUpperCase()} ${path}`, operation })));
  const resolveRef = (schema: Schema): Schema => (schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);

  it('has no object schema without properties, anywhere in the document', () => {
    const empty: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Schema;
      const declaresFields = schema.properties && Object.keys(schema.properties).length > 0;
      if (schema.type === 'object' && !declaresFields && !schema.additionalProperties && !schema.allOf) empty.push(at);
      for (const [key, child] of Object.entries(node)) visit(child, `${at}/${key}`);
    };
    visit(document, '#');
    expect(empty).toEqual([]);
    expect(Object.keys(document.components.schemas).length).toBeGreaterThan(50);
  });

  it('describes every JSON request body by its DTO, with its fields and required ones', () => {
    const bodies = operations().filter(({ operation }) => operation.requestBody);
    expect(bodies.length).toBeGreaterThanOrEqual(29);
    for (const { signature, operation } of bodies) {
      const schema = resolveRef(operation.requestBody?.content['application/json']?.schema ?? {});
      expect([signature, Object.keys(schema.properties ?? {}).length > 0]).toEqual([signature, true]);
    }
    const initialize = resolveRef(document.paths['/api/v1/payments/initialize'].post.requestBody?.content['application/json'].schema ?? {});
    expect(initialize).toMatchObject({
      required: ['amount', 'email'],
      properties: { amount: { type: 'number', example: 1500.5 }, email: { type: 'string', format: 'email', maxLength: 254 }, splits: { type: 'array', maxItems: 50 } },
    });
  });

  it('describes the data of every success answer in the envelope, and the meta of every list', () => {
    for (const { signature, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2') || status === '204') continue;
        // A file download (an export's CSV) answers with the file itself, not an envelope.
        if (response.content?.['text/csv'] && !response.content['application/json']) continue;
        const envelope = response.content?.['application/json']?.schema;
        expect([signature, status, envelope?.properties?.success, envelope && 'data' in (envelope.properties ?? {})]).toEqual([signature, status, { type: 'boolean', enum: [true] }, true]);
        const data = envelope?.properties?.data as Schema;
        const item = resolveRef(data.type === 'array' ? (data.items as Schema) : data);
        expect([signature, Object.keys(item.properties ?? {}).length > 0]).toEqual([signature, true]);
      }
    }
    const list = document.paths['/api/v1/payments'].get.responses['200'].content?.['application/json'].schema;
    expect(list?.properties?.meta).toEqual({ $ref: '#/components/schemas/ListMeta' });
    expect(document.components.schemas.ListMeta).toMatchObject({ required: ['next_cursor', 'has_more', 'limit'], properties: { next_cursor: { type: 'string', nullable: true } } });
    // The values, in whatever order the type checker lists the union's members.
    expect([...(document.components.schemas.PaymentResponse.properties?.status?.enum ?? [])].sort()).toEqual(['abandoned', 'cancelled', 'failed', 'pending', 'scheduled', 'success']);
    expect(document.components.schemas.PaymentResponse.properties).toMatchObject({
      status: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      fees: { nullable: true, allOf: [{ $ref: '#/components/schemas/PaymentFeesResponse' }] },
    });
  });

  it('names every operation like an SDK method, each name once', () => {
    const ids = operations().map(({ signature, operation }) => [signature, operation.operationId] as const);
    const malformed = ids.filter(([, id]) => !/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(id ?? ''));
    expect(malformed).toEqual([]);
    const names = ids.map(([, id]) => id);
    expect(names.filter((id, i) => names.indexOf(id) !== i)).toEqual([]);
    expect(Object.fromEntries(ids)).toMatchObject({
      'POST /api/v1/payments/initialize': 'payments.initialize',
      'POST /api/v1/payments/verify': 'payments.verify',
      'POST /api/v1/refunds': 'refunds.create',
      'POST /api/portal/keys': 'portal.keys.create',
    });
  });

  it('passes Redocly’s recommended ruleset without errors or warnings', async () => {
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    writeFileSync(join(dir, '.redocly.lint-ignore.yaml'), `docs.json: ${JSON.stringify(ACCEPTED_LINT_FINDINGS)}\n`);
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // Redocly exits non-zero on errors; the JSON report says what they were either way.
    const { stdout } = await run(process.execPath, [REDOCLY, 'lint', 'docs.json', '--format=json'], { cwd: dir, env }).catch((error: { stdout: string }) => error);
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> };
    expect(report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(document.paths['/health'].get).toMatchObject({ security: [] });
  });

  it('gives a client generated by openapi-typescript the real types of a few calls', async () => {
    await run(process.execPath, [OPENAPI_TYPESCRIPT, 'docs.json', '--output', 'gateway-api.ts'], { cwd: dir });
    copyFileSync(CLIENT_FIXTURE, join(dir, 'typed-client.ts'));
    const program = ts.createProgram([join(dir, 'typed-client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' };
    expect(ts.formatDiagnostics(diagnostics, host)).toBe('');
  });
});
