import { scopesGrant } from './scopes';

describe('scopesGrant', () => {
  it('grants a route its own scope, everything to a key without scopes, and nothing else', () => {
    expect(scopesGrant(['webhooks:read'], 'webhooks:read')).toBe(true);
    expect(scopesGrant([], 'webhooks:manage')).toBe(true);
    expect(scopesGrant(['customers:read'], 'webhooks:read')).toBe(false);
  });

  it('lets webhooks:manage read webhooks, but not the other way round', () => {
    expect(scopesGrant(['webhooks:manage'], 'webhooks:read')).toBe(true);
    expect(scopesGrant(['webhooks:read'], 'webhooks:manage')).toBe(false);
    expect(scopesGrant(['webhooks:manage'], 'payments:read')).toBe(false);
  });
});
