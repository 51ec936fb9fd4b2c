import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Checks every answer an e2e test gets from the API against the OpenAPI document the API serves:
 * the route is documented, the status is one of the operation's responses, the content type is
 * one that response lists, and a JSON body matches its schema. Mismatches are collected here and
 * turned into a failure of the test file by `openapi-responses.setup.ts`.
 *
 * It lives in the test harness, never in the API: the e2e Jest config turns it on with
 * E2E_VALIDATE_RESPONSES=1 and `startGateway` installs it on each app it boots.
 */

export const RESPONSE_VALIDATION_ENV = 'E2E_VALIDATE_RESPONSES';

export function responseValidationEnabled(): boolean {
  return process.env[RESPONSE_VALIDATION_ENV] === '1';
}

/**
 * Routes left out of the document on purpose, each for a reason: pages for a customer's browser
 * (HTML and redirects, not the JSON API), the provider's signed callbacks (not for merchants), and
 * the document itself with its UI.
 */
const UNDOCUMENTED_ROUTES: RegExp[] = [/^\/checkout\//, /^\/api\/provider\/webhooks$/, /^\/api\/docs(\/|\.json$|-json$|$)/];

export interface ResponseMismatch {
  route: string;
  status: number;
  problem: string;
  test: string;
}

const mismatches: ResponseMismatch[] = [];
let checked = 0;

/** The mismatches seen since the last call (and how many answers were checked), then forgets them. */
export function takeResponseMismatches(): { checked: number; mismatches: ResponseMismatch[] } {
  const taken = { checked, mismatches: mismatches.splice(0) };
  checked = 0;
  return taken;
}

type Json = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: Json }>;
  $ref?: string;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components?: Json & { responses?: Record<string, ResponseObject> };
}

/** One compiled view of a document: its response schemas, compiled as answers need them. */
class DocumentChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    // OpenAPI's file marker on a string: any bytes.
    this.ajv.addFormat('binary', true);
    // `#/components/…` references in the response schemas resolve against this schema's id.
    this.ajv.addSchema(readNullable({ components: document.components }), COMPONENTS_ID);
  }

  /** `body` is the text sent, undefined when the answer has none or streams it. */
  check(method: string, routeUrl: string, status: number, contentType: string | undefined, hasBody: boolean, body: string | undefined): string[] {
    const path = routeUrl.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) return UNDOCUMENTED_ROUTES.some((r) => r.test(routeUrl)) ? [] : ['the route is not in the document'];
    const declared = operation.responses?.[String(status)] ?? operation.responses?.default;
    if (!declared) return [`status ${status} is not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
    const response = this.resolve(declared);
    const mediaType = contentType?.split(';')[0].trim().toLowerCase();
    if (!response.content) return hasBody ? [`a ${mediaType ?? 'typeless'} body where the document says there is none`] : [];
    if (!mediaType || !response.content[mediaType]) return [`content type ${mediaType ?? '(none)'} is not documented (documented: ${Object.keys(response.content).join(', ')})`];
    const schema = response.content[mediaType].schema;
    if (!schema || mediaType !== 'application/json' || body === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(`${method} ${path} ${status} ${mediaType}`, schema);
    if (validate(parsed)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }

  private resolve(response: ResponseObject): ResponseObject {
    if (!response.$ref) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    return this.document.components?.responses?.[name] ?? {};
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(readNullable(rebase(schema)));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

const COMPONENTS_ID = 'openapi-components.json';

/** A copy of a schema whose local `#/…` references point into the components schema instead. */
function rebase(node: unknown): Json {
  return JSON.parse(JSON.stringify(node), (key, value: unknown) => (key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${COMPONENTS_ID}${value}` : value)) as Json;
}

/**
 * `nullable: true` read as the document's consumers read it (openapi-typescript, which types the
 * portal, makes such a property `X | null`): null, or whatever the rest of the schema allows. A
 * strict OpenAPI 3.0.3 reader would still refuse null where an `enum` lacks it or the type comes
 * from `allOf: [$ref]`, which is the form Nest's generator gives every nullable enum and object.
 */
function readNullable(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value) || (value as Json).nullable !== true) return value;
    const { nullable: _nullable, ...rest } = value as Json;
    return { anyOf: [{ type: 'null' }, rest] };
  }) as Json;
}

/**
 * The worker's checker, shared by its test files. The document's paths and components come from the
 * code alone (configuration changes only its description's text), so every API a run boots serves
 * the same ones: reading and compiling them once per worker, rather than once per file, saves about
 * a second of CPU a file (the document is built on its first request). Kept outside Jest's module
 * registry, which is new for every file (worker-memo.cjs).
 */
const workerMemo = process.getBuiltinModule('node:module').createRequire(__filename)('./worker-memo.cjs') as Map<string, DocumentChecker>;
const CHECKER = 'openapi-responses:checker';

/**
 * Installs the check on an app that is built but not yet listening; `loadDocument` (called once it
 * listens) reads the document it serves, unless a file before it on this worker did.
 */
export function installResponseValidation(app: NestFastifyApplication): { loadDocument(): Promise<void> } {
  const fastify = app.getHttpAdapter().getInstance();
  let checker: DocumentChecker | undefined;
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (checker) inspect(checker, request, reply, payload);
    done(null, payload);
  });
  return {
    async loadDocument() {
      checker = workerMemo.get(CHECKER);
      if (checker) return;
      const answer = await fastify.inject({ method: 'GET', url: '/api/docs.json' });
      checker = new DocumentChecker(JSON.parse(answer.body) as OpenApiDocument);
      workerMemo.set(CHECKER, checker);
    },
  };
}

function inspect(checker: DocumentChecker, request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const routeUrl = request.routeOptions.url;
  // An unknown path (the not-found handler), and HEAD/OPTIONS answers Fastify adds by itself.
  if (!routeUrl || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const contentType = reply.getHeader('content-type');
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  // A stream (a CSV download) is checked by status and content type only.
  const hasBody = body !== undefined ? body.length > 0 : payload !== null && payload !== undefined;
  let problems: string[];
  try {
    problems = checker.check(request.method, routeUrl, reply.statusCode, typeof contentType === 'string' ? contentType : undefined, hasBody, hasBody ? body : undefined);
  } catch (error) {
    problems = [`the check itself failed: ${(error as Error).message}`];
  }
  checked++;
  for (const problem of problems) {
    mismatches.push({ route: `${request.method} ${routeUrl}`, status: reply.statusCode, problem: problem.slice(0, 400), test: currentTestName() });
  }
}

function currentTestName(): string {
  const state = (globalThis as { expect?: { getState(): { currentTestName?: string } } }).expect?.getState();
  return state?.currentTestName ?? '(outside a test)';
}
