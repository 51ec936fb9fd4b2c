import { diffStates, showValue } from './diff';

describe('audit diff', () => {
  it('lists changed fields first, then the unchanged ones, alphabetically', () => {
    expect(diffStates({ name: 'Old', scopes: ['a'], mode: 'test' }, { name: 'New', scopes: ['a'], mode: 'test', revoked: true })).toEqual([
      { field: 'name', before: 'Old', after: 'New', changed: true },
      { field: 'revoked', before: undefined, after: true, changed: true },
      { field: 'mode', before: 'test', after: 'test', changed: false },
      { field: 'scopes', before: ['a'], after: ['a'], changed: false },
    ]);
  });

  it('treats a missing side as absent fields: a creation has only after, a deletion only before', () => {
    expect(diffStates(null, { id: 'k1' })).toEqual([{ field: 'id', before: undefined, after: 'k1', changed: true }]);
    expect(diffStates({ id: 'k1' }, null)).toEqual([{ field: 'id', before: 'k1', after: undefined, changed: true }]);
    expect(diffStates(null, null)).toEqual([]);
  });

  it('shows strings as they are, other values as JSON and absent ones as a dash', () => {
    expect([showValue('a b'), showValue(12.5), showValue(null), showValue({ x: [1] }), showValue(undefined)]).toEqual(['a b', '12.5', 'null', '{"x":[1]}', '—']);
  });
});
