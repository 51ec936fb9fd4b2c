import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES, ERROR_HTTP_STATUS } from '@gateway/contracts';
import { documentIdempotency } from './idempotency/idempotency-openapi';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { documentRateLimits } from './throttling/rate-limit-openapi';

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

**Error codes**

| HTTP | code |
|---|---|
${ERROR_TABLE}
`;

/** OpenAPI 3 at /api/docs (UI) and /api/docs.json, generated from the controllers and contracts. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Payment Gateway API')
    .setVersion('v1')
    .setDescription(DESCRIPTION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A secret key: sk_test_… or sk_live_…' })
    .addCookieAuth('gw_session', { type: 'apiKey', in: 'cookie', description: 'Developer portal session (POST /api/portal/auth/login)' }, 'gw_session')
    .addTag('Portal', 'The developer portal API under /api/portal (not part of the merchant contract): session cookie, X-CSRF-Token on every state-changing request, X-TOTP-Code for step-up actions. See docs/portal-api.md.')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  documentIdempotency(document);
  documentRateLimits(document, app.get<AppConfig>(APP_CONFIG).rateLimits);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs.json', useGlobalPrefix: false });
}
