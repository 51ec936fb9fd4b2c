import { randomUUID } from 'node:crypto';
import type { NewRequestLogEntry } from './request-log-entry';

/** An authenticated request's entry for tests; override what the test is about. */
export function anEntry(overrides: Partial<NewRequestLogEntry> = {}): NewRequestLogEntry {
  return {
    requestId: `req_${randomUUID().replace(/-/g, '')}`,
    createdAt: new Date(),
    durationMs: 7,
    developerId: randomUUID(),
    apiKeyId: randomUUID(),
    mode: 'test',
    method: 'GET',
    path: '/api/v1/customers',
    route: '/api/v1/customers',
    statusCode: 200,
    requestBody: null,
    responseBody: '{"success":true,"data":[]}',
    clientIp: '203.0.113.7',
    userAgent: 'integration-test',
    ...overrides,
  };
}
