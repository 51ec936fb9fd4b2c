import type { OpenAPIObject } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@gateway/domain/idempotency';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HEADER_ALIAS } from './idempotency-key.extractor';
import { IDEMPOTENT_REPLAYED_HEADER } from './idempotency.guard';

type PathItem = OpenAPIObject['paths'][string];
type Operation = NonNullable<PathItem['post']>;

const MUTATING_METHODS = ['post', 'put', 'patch', 'delete'] as const;

/** The description section; docs/idempotency.md is the long form. */
export const IDEMPOTENCY_OPENAPI_SECTION = `**Idempotency.** Every mutating request (POST, PUT, PATCH, DELETE) authenticated with an API key
accepts \`${IDEMPOTENCY_HEADER}\` (or its alias \`${IDEMPOTENCY_HEADER_ALIAS}\`; payment initialize also takes \`idempotency_key\`
in the body): 1–${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, scoped to your developer account, the key's mode, the
method and the endpoint, and remembered for at least 24 hours. The first request's answer — a success or a business refusal
such as 404, 409 or 422 — is stored, and every retry with the same key and the same request gets exactly the same status and
body back with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`, without running again. Not stored, so a retry runs again: refusals
before the request runs (authentication, IP allowlist, scope, rate limit), 400 validation refusals, and 5xx errors.
The same key with a different body, path or query is 422 \`idempotency_key_reused\`; a retry while the first request is still
running is 409 \`idempotency_key_in_progress\`; two different keys in one request are 400 \`validation_error\`.
`;

const KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header' as const,
  required: false,
  description:
    `Makes the request safe to retry: the first answer is stored and replayed (with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`). ` +
    `Alias: \`${IDEMPOTENCY_HEADER_ALIAS}\`. See "Idempotency" in the API description.`,
  schema: { type: 'string' as const, minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x20-\\x7E]+$' },
};

const REFUSALS: Record<string, string> = {
  '409': '`idempotency_key_in_progress`: a request with this idempotency key is still running',
  '422': '`idempotency_key_reused`: this idempotency key was used with a different request',
};

/**
 * Adds the idempotency header, the replay marker and the idempotency refusals to every mutating
 * operation that takes an API key, and the section explaining them to the description.
 */
export function documentIdempotency(document: OpenAPIObject): void {
  for (const pathItem of Object.values(document.paths)) {
    for (const method of MUTATING_METHODS) {
      const operation = pathItem[method];
      if (operation?.security?.length) documentOperation(operation);
    }
  }
  document.info.description = `${document.info.description ?? ''}\n${IDEMPOTENCY_OPENAPI_SECTION}`;
}

function documentOperation(operation: Operation): void {
  operation.parameters = [...(operation.parameters ?? []), KEY_PARAMETER];
  for (const [status, response] of Object.entries(operation.responses)) {
    if (status.startsWith('2') && response && !('$ref' in response)) {
      response.headers = {
        ...response.headers,
        [IDEMPOTENT_REPLAYED_HEADER]: { description: '`true` when this is the stored answer to an earlier request with the same idempotency key', schema: { type: 'string', enum: ['true'] } },
      };
    }
  }
  for (const [status, text] of Object.entries(REFUSALS)) {
    const existing = operation.responses[status];
    if (existing && '$ref' in existing) continue;
    operation.responses[status] = { ...existing, description: existing ? `${existing.description}; ${text}` : `Error envelope with code ${text}` };
  }
}
