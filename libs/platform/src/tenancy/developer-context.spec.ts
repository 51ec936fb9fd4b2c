import { tenantOf } from './developer-context';

describe('tenantOf', () => {
  const row = { developerId: 'd1', mode: 'test' as const, reference: 'PAY-1' };

  it("carries a tenant's request id to a row of that same tenant", () => {
    expect(tenantOf(row, { developerId: 'd1', mode: 'test', requestId: 'req_1' })).toEqual({ developerId: 'd1', mode: 'test', requestId: 'req_1' });
  });

  it("never to another tenant's row, nor to the same developer's other mode", () => {
    expect(tenantOf(row, { developerId: 'd2', mode: 'test', requestId: 'req_1' }).requestId).toBeUndefined();
    expect(tenantOf(row, { developerId: 'd1', mode: 'live', requestId: 'req_1' }).requestId).toBeUndefined();
  });

  it('carries the id of a request acting for no tenant (a provider callback) to the row it reaches', () => {
    expect(tenantOf(row, { requestId: 'req_callback' })).toEqual({ developerId: 'd1', mode: 'test', requestId: 'req_callback' });
  });

  it('has no request outside one, and keeps only the tenant of the row', () => {
    expect(tenantOf(row)).toEqual({ developerId: 'd1', mode: 'test', requestId: undefined });
  });
});
