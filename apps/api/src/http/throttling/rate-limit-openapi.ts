import type { OpenAPIObject } from '@nestjs/swagger';
import type { RateLimitSettings } from './rate-limit-buckets';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Components = NonNullable<OpenAPIObject['components']>;
type Headers = NonNullable<Components['headers']>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;
const RATE_LIMIT_EXCEEDED = 'RateLimitExceeded';

const integer = { type: 'integer', minimum: 0 } as const;

const HEADERS: Headers = {
  'X-RateLimit-Limit': {
    description: 'Requests per second allowed by the stricter bucket (this API key or this client IP).',
    schema: integer,
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that bucket in the current 1-second window.', schema: integer },
  'X-RateLimit-Reset': { description: 'Whole seconds until that bucket admits requests again.', schema: integer },
};
const RETRY_AFTER: Headers = {
  'Retry-After': { description: 'Whole seconds to wait before retrying; the same value as `retry_after`.', schema: { type: 'integer', minimum: 1 } },
};

/**
 * Documents the rate limit on every authenticated operation (those with a security requirement):
 * the `X-RateLimit-*` headers on each of its responses and a shared 429 response. Done on the
 * generated document so that no route can forget it.
 */
export function documentRateLimits(document: OpenAPIObject, settings: RateLimitSettings): OpenAPIObject {
  const components = (document.components ??= {});
  components.headers = { ...components.headers, ...HEADERS, ...RETRY_AFTER };
  components.responses = { ...components.responses, [RATE_LIMIT_EXCEEDED]: rateLimitExceededResponse() };
  for (const pathItem of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation?.security?.length) addToOperation(operation);
    }
  }
  document.info.description = `${document.info.description ?? ''}\n${rateLimitSection(settings)}`;
  return document;
}

function addToOperation(operation: Operation): void {
  for (const response of Object.values(operation.responses)) {
    if (response && !('$ref' in response)) response.headers = { ...response.headers, ...refs(HEADERS) };
  }
  // A route that answers 429 with a code of its own (the portal sign-in's `too_many_attempts`)
  // keeps its response, which then names the rate limit too: the shared one allows only
  // `rate_limit_exceeded`, and would make the route's own answer a contradiction of the document.
  const own = operation.responses['429'];
  if (own && !('$ref' in own)) {
    if (!own.description.includes('rate_limit_exceeded')) own.description = `${own.description}, \`rate_limit_exceeded\``;
    own.headers = { ...own.headers, ...refs(RETRY_AFTER) };
    return;
  }
  operation.responses['429'] = { $ref: `#/components/responses/${RATE_LIMIT_EXCEEDED}` };
}

function rateLimitExceededResponse() {
  return {
    description: 'Too many requests: `rate_limit_exceeded`. Wait `retry_after` seconds, then back off exponentially.',
    headers: refs({ ...HEADERS, ...RETRY_AFTER }),
    content: {
      'application/json': {
        schema: {
          type: 'object' as const,
          required: ['success', 'code', 'message', 'retry_after'],
          properties: {
            success: { type: 'boolean' as const, enum: [false] },
            code: { type: 'string' as const, enum: ['rate_limit_exceeded'] },
            message: { type: 'string' as const },
            retry_after: { type: 'integer' as const, minimum: 1, description: 'Whole seconds to wait before retrying.' },
          },
        },
        example: {
          success: false,
          code: 'rate_limit_exceeded',
          message: 'Too many requests with this API key: at most 25 per second in test mode. Retry in 1 second.',
          retry_after: 1,
        },
      },
    },
  };
}

function refs(headers: Headers): Headers {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function rateLimitSection(settings: RateLimitSettings): string {
  return `
**Rate limits.** Every request counts against its client IP (${settings.ipPerSecond} per second, whether or not
its API key is valid) and, once the key is known, against that key (${settings.livePerSecond} per second for a live
key, ${settings.testPerSecond} for a test key; each key has its own count). Both apply at once and the stricter
answers. Authenticated responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`
(seconds) for whichever bucket has fewer requests left. Past a limit the answer is 429 \`rate_limit_exceeded\` with
\`retry_after\` (integer seconds) and a \`Retry-After\` header: wait that long, back off exponentially if it recurs,
and prefer bulk endpoints to loops of single calls.
`;
}
