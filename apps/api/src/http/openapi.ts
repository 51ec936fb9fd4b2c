import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES, ERROR_HTTP_STATUS, ErrorEnvelope, ListMeta } from '@gateway/contracts';
import { documentIdempotency } from './idempotency/idempotency-openapi';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { documentRateLimits } from './throttling/rate-limit-openapi';
import { sdkOperationId } from './openapi-operation-ids';
import pluginMetadata from './openapi-metadata';
import { MAX_JSON_DEPTH } from './json-depth';

const ERROR_TABLE = ERROR_CODES.map((code) => `| ${ERROR_HTTP_STATUS[code]} | \`${code}\` |`).join('\n');

const DESCRIPTION = `JSON REST API of the payment gateway.

**Envelopes.** Success: \`{"success": true, "data": …}\`; lists add \`"meta": {"next_cursor", "has_more", "limit"}\`
(\`?limit=\` 1–100, default 20; \`?cursor=\` opaque; newest first).
Errors: \`{"success": false, "code", "message", "errors"?: {field: [messages]}, "retry_after"?}\`.
Every response carries \`X-Request-Id\`. Every path answers with and without its trailing slash.

**Amounts** are JSON numbers in the major unit (NGN, not kobo) with at most two decimals.

**Bodies.** Malformed JSON: 400 \`invalid_json\` (also for a \`__proto__\` or \`constructor\` key); over
1 MiB: 413 \`payload_too_large\`; unknown fields: 400 \`validation_error\`. Any text is kept exactly,
except what no database column can hold — a NUL (\`\\u0000\`) or an unpaired UTF-16 surrogate, in a
value or a key at any depth: 400 \`validation_error\` naming the field (\`metadata.notes.1\`).
Objects and arrays nest at most ${MAX_JSON_DEPTH} levels deep (the body itself is level 1): deeper, 400
\`validation_error\` on \`body\`, before the body is parsed. Every array has an item limit (stated on
its field; bulk \`items\`: \`PAYMENT_BULK_MAX_ITEMS\`): a longer one is 400 \`validation_error\` naming it,
refused by its length before any item is read. A path parameter or query value holding a NUL
(\`%00\`) or an unpaired surrogate: 400 \`validation_error\` naming the parameter. A \`cursor\` that is
not exactly one this list issued: 400 \`validation_error\` on \`cursor\`.

**Error codes**

| HTTP | code |
|---|---|
${ERROR_TABLE}
`;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * OpenAPI 3 at /api/docs (UI) and /api/docs.json, generated from the controllers and contracts:
 * the DTO schemas from the swagger plugin's metadata (generated from libs/contracts by
 * `npm run openapi:metadata`, see docs/openapi.md), the routes from their decorators.
 */
export async function setupOpenApi(app: INestApplication): Promise<void> {
  await SwaggerModule.loadPluginMetadata(pluginMetadata);
  const config = new DocumentBuilder()
    .setTitle('Payment Gateway API')
    .setVersion('v1')
    .setDescription(DESCRIPTION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative: the document is served by the gateway it describes, whatever its public URL.
    .addServer('/', 'This gateway')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A secret key: sk_test_… or sk_live_…' })
    .addCookieAuth('gw_session', { type: 'apiKey', in: 'cookie', description: 'Developer portal session (POST /api/portal/auth/login)' }, 'gw_session')
    .addTag('Portal', 'The developer portal API under /api/portal (not part of the merchant contract): session cookie, X-CSRF-Token on every state-changing request, X-TOTP-Code for step-up actions. See docs/portal-api.md.')
    .build();
  const rateLimits = app.get<AppConfig>(APP_CONFIG).rateLimits;
  // Built on the first request for the docs, not at startup: scanning every controller and DTO
  // was an eighth of the API's startup CPU, spent before /ready for a page few processes serve.
  const buildDocument = (): OpenAPIObject => {
    const document = SwaggerModule.createDocument(app, config, { operationIdFactory: sdkOperationId, extraModels: [ErrorEnvelope, ListMeta] });
    documentIdempotency(document);
    documentInputRefusals(document);
    documentRateLimits(document, rateLimits);
    documentServiceUnavailable(document);
    documentErrorBodies(document);
    documentPublicOperations(document);
    return document;
  };
  SwaggerModule.setup('api/docs', app, buildDocument, { jsonDocumentUrl: 'api/docs.json', useGlobalPrefix: false });
}

/**
 * Refusals that come before the route runs, so every operation taking the input can answer them:
 * a path parameter or query value holding text no column can store (url-text.hook.ts) and a
 * malformed or too deep JSON body (json-body-parser.ts) are 400; a body over the limit is 413, and
 * one of another content type 415 (JSON is the only body the API parses).
 */
function documentInputRefusals(document: OpenAPIObject): void {
  for (const operation of operations(document)) {
    const takesUrlValues = (operation.parameters ?? []).some((p) => !('$ref' in p) && (p.in === 'path' || p.in === 'query'));
    const takesBody = operation.requestBody !== undefined;
    if ((takesUrlValues || takesBody) && !operation.responses['400']) {
      operation.responses['400'] = {
        description: takesBody
          ? 'Error envelope with code `validation_error` or `invalid_json`: the body or a path or query value is invalid'
          : 'Error envelope with code `validation_error`: a path parameter or query value holds a NUL or an unpaired surrogate',
      };
    }
    if (!takesBody) continue;
    operation.responses['413'] ??= { description: 'Error envelope with code `payload_too_large`: the body is over 1 MiB' };
    operation.responses['415'] ??= { description: 'Error envelope with code `unsupported_media_type`: the body is not `application/json`' };
  }
}

/**
 * Any operation can meet the database restarting or unreachable, or a statement stopped by
 * DATABASE_STATEMENT_TIMEOUT_MS (error-envelope.filter.ts): it answers 503 `service_unavailable`,
 * nothing committed, to be retried (with the same key).
 */
function documentServiceUnavailable(document: OpenAPIObject): void {
  for (const operation of operations(document)) {
    operation.responses['503'] ??= { description: 'Error envelope with code `service_unavailable`: the database is briefly unavailable, or a statement ran past the statement timeout; nothing was done, retry (with the same Idempotency-Key)' };
  }
}

/** Every error answer is the error envelope (one filter renders them all); its codes are in each description. */
function documentErrorBodies(document: OpenAPIObject): void {
  for (const operation of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || Number(status) < 400 || '$ref' in response || response.content) continue;
      response.content = { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelope) } } };
    }
  }
}

/**
 * Routes that take neither a key nor a session (health, readiness) say so with an empty security
 * requirement. Every other route declares its access, which the route-access e2e test proves.
 */
function documentPublicOperations(document: OpenAPIObject): void {
  for (const operation of operations(document)) operation.security ??= [];
}

function operations(document: OpenAPIObject) {
  return Object.values(document.paths).flatMap((pathItem) => METHODS.flatMap((method) => (pathItem[method] ? [pathItem[method]] : [])));
}
