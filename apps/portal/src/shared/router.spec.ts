import { hrefFor, isActivePath, matchRoute, pathFromHash } from './router';

describe('pathFromHash', () => {
  it.each([
    ['', '/'],
    ['#', '/'],
    ['#/', '/'],
    ['#/status', '/status'],
    ['#status', '/status'],
    ['#/status/', '/status'],
    ['#//status', '/status'],
    ['#/payments/pay_1?tab=events', '/payments/pay_1'],
  ])('%j → %s', (hash, path) => {
    expect(pathFromHash(hash)).toBe(path);
  });
});

describe('hrefFor', () => {
  it('prefixes # and a leading slash', () => {
    expect(hrefFor('/status')).toBe('#/status');
    expect(hrefFor('status')).toBe('#/status');
  });
});

describe('matchRoute', () => {
  const routes = [{ path: '/' }, { path: '/payments' }, { path: '/payments/new' }, { path: '/status' }];

  it('prefers the exact route, then the longest ancestor', () => {
    expect(matchRoute(routes, '/status')).toEqual({ path: '/status' });
    expect(matchRoute(routes, '/payments/new')).toEqual({ path: '/payments/new' });
    expect(matchRoute(routes, '/payments/pay_1')).toEqual({ path: '/payments' });
    expect(matchRoute(routes, '/')).toEqual({ path: '/' });
  });

  it('returns undefined for unknown paths (the root route is not a catch-all)', () => {
    expect(matchRoute(routes, '/nope')).toBeUndefined();
    expect(matchRoute(routes, '/statusx')).toBeUndefined();
  });
});

describe('isActivePath', () => {
  it('matches the path itself and its children only', () => {
    expect(isActivePath('/payments', '/payments')).toBe(true);
    expect(isActivePath('/payments/pay_1', '/payments')).toBe(true);
    expect(isActivePath('/paymentsx', '/payments')).toBe(false);
    expect(isActivePath('/payments', '/')).toBe(false);
  });
});
