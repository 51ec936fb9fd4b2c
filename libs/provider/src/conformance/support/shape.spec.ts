import { shapeErrors } from './shape';

describe('the conformance shape check', () => {
  const shape = { id: 'integer', amount: 'integer', reference: 'string', paid_at: ['iso-date', 'null'], details: { bank_code: 'string' } } as const;

  it('passes a conforming object', () => {
    expect(shapeErrors({ id: 1, amount: 10010, reference: 'r', paid_at: null, details: { bank_code: '058' }, extra: true }, shape)).toEqual([]);
  });

  it('names each missing field and each wrong kind: a fractional or string amount, a date that is not ISO', () => {
    expect(shapeErrors({ id: 1, amount: 100.1, paid_at: '30/09/2016', details: {} }, shape)).toEqual([
      'amount: expected integer, got 100.1',
      'reference: missing',
      'paid_at: expected iso-date | null, got "30/09/2016"',
      'details.bank_code: missing',
    ]);
    expect(shapeErrors({ id: 1, amount: '10010', reference: 'r', paid_at: null, details: { bank_code: '058' } }, shape)).toEqual(['amount: expected integer, got "10010"']);
    expect(shapeErrors(null, shape)).toEqual(['value: expected an object']);
  });
});
