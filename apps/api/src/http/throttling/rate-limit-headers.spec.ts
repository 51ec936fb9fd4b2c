import { type RateLimitSnapshot, stricterOf } from './rate-limit-headers';

const ip = (remaining: number, resetSeconds = 1): RateLimitSnapshot => ({ bucket: 'ip', limit: 200, remaining, resetSeconds });
const key = (remaining: number, resetSeconds = 1): RateLimitSnapshot => ({ bucket: 'api-key', limit: 25, remaining, resetSeconds });

describe('stricterOf: which bucket the X-RateLimit headers show', () => {
  it('shows the key when it has fewer requests left than the IP', () => {
    expect(stricterOf(key(3), ip(150))).toEqual(key(3));
  });

  it('shows the IP when it has fewer requests left, even though its limit is higher', () => {
    expect(stricterOf(key(20), ip(2))).toEqual(ip(2));
  });

  it('on a tie in requests left, shows the bucket that reopens later', () => {
    expect(stricterOf(key(0, 1), ip(0, 2))).toEqual(ip(0, 2));
    expect(stricterOf(key(0, 2), ip(0, 1))).toEqual(key(0, 2));
  });

  it('shows the only bucket when the IP was not counted (route without the IP guard)', () => {
    expect(stricterOf(key(4), undefined)).toEqual(key(4));
  });
});
