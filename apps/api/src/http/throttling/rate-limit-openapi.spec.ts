import type { OpenAPIObject } from '@nestjs/swagger';
import { documentRateLimits } from './rate-limit-openapi';

const settings = { livePerSecond: 100, testPerSecond: 25, ipPerSecond: 200, portalAuthPerMinute: 10, redisPrefix: 'gw:' };

function document(): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: 'v1', description: 'Intro.' },
    paths: {
      '/api/v1/customers': {
        get: { security: [{ bearer: [] }], responses: { '200': { description: 'ok' }, '401': { description: 'no' } } },
        post: { security: [{ bearer: [] }], responses: { '201': { $ref: '#/components/responses/Created' } } },
      },
      '/health': { get: { responses: { '200': { description: 'ok' } } } },
    },
  };
}

describe('documentRateLimits', () => {
  it('adds the X-RateLimit headers to every response of an authenticated operation, and the shared 429', () => {
    const doc = documentRateLimits(document(), settings);
    const get = doc.paths['/api/v1/customers'].get;
    for (const status of ['200', '401']) {
      expect(get?.responses[status]).toMatchObject({
        headers: {
          'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
          'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
          'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
        },
      });
    }
    expect(get?.responses['429']).toEqual({ $ref: '#/components/responses/RateLimitExceeded' });
    expect(doc.paths['/api/v1/customers'].post?.responses).toEqual({
      '201': { $ref: '#/components/responses/Created' },
      '429': { $ref: '#/components/responses/RateLimitExceeded' },
    });
  });

  it('keeps a 429 the operation documents with a code of its own, naming the rate limit beside it', () => {
    const doc = document();
    const post = doc.paths['/api/v1/customers'].post;
    if (post) post.responses['429'] = { description: 'Error envelope with code `too_many_attempts`' };
    const kept = documentRateLimits(doc, settings).paths['/api/v1/customers'].post?.responses['429'];
    expect(kept).toMatchObject({
      description: 'Error envelope with code `too_many_attempts`, `rate_limit_exceeded`',
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, 'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' } },
    });
  });

  it('leaves operations without a security requirement (health) untouched', () => {
    const doc = documentRateLimits(document(), settings);
    expect(doc.paths['/health'].get?.responses).toEqual({ '200': { description: 'ok' } });
  });

  it('describes the 429 body with an integer retry_after and the Retry-After header', () => {
    const response = documentRateLimits(document(), settings).components?.responses?.RateLimitExceeded;
    expect(response).toMatchObject({
      headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
      content: { 'application/json': { schema: { properties: { retry_after: { type: 'integer', minimum: 1 } } } } },
    });
  });

  it('states the configured limits in the description, after the existing text', () => {
    const description = documentRateLimits(document(), { ...settings, livePerSecond: 300 }).info.description ?? '';
    expect(description.startsWith('Intro.')).toBe(true);
    expect(description).toContain('200 per second');
    expect(description).toContain('300 per second for a live');
    expect(description).toContain('25 for a test key');
  });
});
