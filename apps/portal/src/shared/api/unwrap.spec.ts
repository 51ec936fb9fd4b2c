import { ApiError } from '../api-client';
import { unwrap, unwrapPage } from './unwrap';

const response = (status: number) => new Response(null, { status, headers: { 'x-request-id': 'req_1' } });

describe('unwrap', () => {
  it('keeps the field errors of an error envelope, and only in their documented shape', async () => {
    const call = Promise.resolve({
      error: { code: 'validation_error', message: 'The request is invalid.', errors: { cidr: ['must be an IPv4 or IPv6 address or CIDR range'], odd: 42 } },
      response: response(400),
    });
    const error: unknown = await unwrap(call).catch((caught: unknown) => caught);
    if (!(error instanceof ApiError)) throw new Error('expected an ApiError');
    expect(error.errors).toEqual({ cidr: ['must be an IPv4 or IPv6 address or CIDR range'] });
    expect(error.requestId).toBe('req_1');
  });

  it('returns a list page with its meta, for cursor paging', async () => {
    const meta = { next_cursor: 'c2', has_more: true, limit: 25 };
    await expect(unwrapPage(Promise.resolve({ data: { data: [1, 2], meta }, response: response(200) }))).resolves.toEqual({ data: [1, 2], meta });
  });
});
