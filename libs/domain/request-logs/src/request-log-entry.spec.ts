import { type NewRequestLogEntry, toRequestLogRow } from './request-log-entry';

const entry: NewRequestLogEntry = {
  requestId: 'req_1',
  createdAt: new Date('2025-01-01T00:00:00Z'),
  durationMs: 12.6,
  developerId: null,
  apiKeyId: null,
  mode: null,
  method: 'POST',
  path: '/api/v1/customers',
  route: '/api/v1/customers',
  statusCode: 201,
  requestBody: '{"email":"a@example.com","password":"canary-pw"}',
  responseBody: '{"success":true,"data":{"token":"canary-token"}}',
  clientIp: '127.0.0.1',
  userAgent: 'curl/8',
};

describe('toRequestLogRow', () => {
  it('redacts both bodies and rounds the duration to whole milliseconds', () => {
    const row = toRequestLogRow(entry);
    expect(row.requestBody).toBe('{"email":"a@example.com","password":"[REDACTED]"}');
    expect(row.responseBody).toBe('{"success":true,"data":{"token":"[REDACTED]"}}');
    expect(row.durationMs).toBe(13);
  });

  it('bounds an absurd path and user agent, and keeps them storable', () => {
    const row = toRequestLogRow({ ...entry, path: `/api/v1/${'a'.repeat(10_000)}`, userAgent: `bot\u0000${'b'.repeat(5000)}` });
    expect(row.path).toHaveLength(2048);
    expect(row.userAgent).toHaveLength(512);
    expect(row.userAgent).not.toContain('\u0000');
  });

  it('masks a secret API key in the path or user agent, even where the bound cuts the path', () => {
    const key = `sk_live_${'A1b2'.repeat(8)}`;
    const row = toRequestLogRow({ ...entry, path: `/api/v1/${'p'.repeat(2030)}/${key}`, userAgent: `tool key=${key}` });
    expect(row.path).not.toContain('A1b2');
    expect(row.userAgent).toBe('tool key=[REDACTED]');
  });

  it('masks a card number or key that percent-escapes spell in the path, and keeps any other path as sent', () => {
    const key = `sk_live_${'A1b2'.repeat(8)}`;
    expect(toRequestLogRow({ ...entry, path: '/api/v1/customers/4084%200840%208408%204081' }).path).toBe('/api/v1/customers/[REDACTED]');
    expect(toRequestLogRow({ ...entry, path: '/api/v1/customers/%34%30%38%34084084084081' }).path).toBe('/api/v1/customers/[REDACTED]');
    expect(toRequestLogRow({ ...entry, path: `/api/v1/customers/${key.replaceAll('_', '%5F')}` }).path).toBe('/api/v1/customers/[REDACTED]');
    // A malformed escape elsewhere does not keep the card encoded.
    expect(toRequestLogRow({ ...entry, path: '/api/v1/customers/%E0%A4%A/4084%200840%208408%204081' }).path).toBe('/api/v1/customers/%E0%A4%A/[REDACTED]');
    // Nothing to hide: stored as sent, escapes and all (a NUL too: it is refused, not hidden).
    expect(toRequestLogRow({ ...entry, path: '/api/v1/customers/ada%20lovelace%2F1' }).path).toBe('/api/v1/customers/ada%20lovelace%2F1');
    expect(toRequestLogRow({ ...entry, path: '/api/v1/payments/PAY_%00x' }).path).toBe('/api/v1/payments/PAY_%00x');
  });

  it('replaces a character the bound cuts in half instead of storing half of it', () => {
    const row = toRequestLogRow({ ...entry, userAgent: `${'a'.repeat(511)}😀` });
    expect(row.userAgent).toBe(`${'a'.repeat(511)}\ufffd`);
  });
});
