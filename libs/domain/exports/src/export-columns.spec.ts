import { stringify } from 'csv-stringify/sync';
import { EXPORT_COLUMNS, toCsvCells } from './export-columns';
import { parse } from 'csv-parse/sync';

const payment = {
  reference: 'PAY_1',
  status: 'success',
  amount: 1234.5,
  currency: 'NGN',
  net_amount: 1224.5,
  fees: { platform: 10, provider: 0 },
  amount_refunded: 0,
  email: 'buyer@example.com',
  customer_reference: 'CUS_1',
  authorization_url: null,
  callback_url: null,
  metadata: { order: 'A-1', note: 'x,"y"' },
  splits: [],
  authorization: { authorization_code: 'AUTH_1', reusable: true, brand: 'visa', last4: '4081', exp_month: '12', exp_year: '2030', bank: null },
  gateway_response: 'Approved',
  channel: 'card',
  charge_at: null,
  paid_at: '2026-11-26T10:00:01.000Z',
  created_at: '2026-11-26T10:00:00.000Z',
};

/** RFC 4180 records, read by the csv-stringify project's own parser. */
const parseCsv = (text: string): string[][] => parse(text);

const cellsOf = (row: object, type: keyof typeof EXPORT_COLUMNS = 'payments') => {
  const columns = EXPORT_COLUMNS[type];
  const cells = toCsvCells(row, columns);
  return Object.fromEntries(columns.map((c, i) => [c.name, cells[i]]));
};

describe('export CSV cells', () => {
  it('writes 1234.5 as "1234.50", and every amount with exactly two decimals', () => {
    const cells = cellsOf(payment);
    expect([cells['amount'], cells['net_amount'], cells['fees.platform'], cells['amount_refunded']]).toEqual(['1234.50', '1224.50', '10.00', '0.00']);
  });

  it('keeps amounts exact where float arithmetic would not (0.1 + 0.2, 9,999,999,999,999.99, negative cents)', () => {
    const ledger = { id: 'e', type: 'payment', amount: 9_999_999_999_999.99, direction: 'credit', balance_type: 'available', currency: 'NGN', reference: 'r', description: 'd', created_at: 't' };
    expect(cellsOf(ledger, 'ledger')['amount']).toBe('9999999999999.99');
    expect(cellsOf({ ...ledger, amount: 100.1 }, 'ledger')['amount']).toBe('100.10');
    expect(cellsOf({ ...ledger, amount: -0.05 }, 'ledger')['amount']).toBe('-0.05');
    // A value no amount can be (three decimals) is refused rather than rounded into the file.
    expect(() => cellsOf({ ...ledger, amount: 0.1 + 0.2 }, 'ledger')).toThrow();
  });

  it('flattens nested objects as dotted columns and leaves a null object\'s columns empty', () => {
    const cells = cellsOf(payment);
    expect([cells['authorization.brand'], cells['authorization.reusable'], cells['authorization.bank']]).toEqual(['visa', 'true', '']);
    const unpaid = cellsOf({ ...payment, fees: null, authorization: null, net_amount: null });
    expect([unpaid['fees.platform'], unpaid['authorization.authorization_code'], unpaid['net_amount']]).toEqual(['', '', '']);
  });

  it('writes times as the ISO 8601 UTC text the API shows, and free-form fields as compact JSON', () => {
    const cells = cellsOf(payment);
    expect(cells['created_at']).toBe('2026-11-26T10:00:00.000Z');
    expect(cells['metadata']).toBe('{"order":"A-1","note":"x,\\"y\\""}');
    expect(cells['splits']).toBe('[]');
  });

  it('neutralises spreadsheet formulas in text (OWASP CSV injection) but not in amounts', () => {
    for (const attack of ['=HYPERLINK("http://evil")', '+1+cmd|/C calc', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      expect(cellsOf({ ...payment, email: attack })['email']).toBe(`'${attack}`);
    }
    expect(cellsOf({ ...payment, email: 'plain@example.com' })['email']).toBe('plain@example.com');
    const refund = { reference: 'R', payment_reference: 'P', amount: 5, currency: 'NGN', reason: '=1+1', status: 'processed', created_at: 't', processed_at: null };
    expect(cellsOf(refund, 'refunds')['reason']).toBe("'=1+1");
  });

  it('round-trips through the CSV writer: quotes, commas, newlines and UTF-8 come back as written', () => {
    const customer = { reference: 'CUS_1', email: 'a@b.c', name: 'Ọlá "Ade", Jr.\nline 2', phone: null, metadata: {}, created_at: '2026-01-01T00:00:00.000Z' };
    const columns = EXPORT_COLUMNS.customers.map((c) => c.name);
    const text = stringify([toCsvCells(customer, EXPORT_COLUMNS.customers)], { header: true, columns });
    const [header, cells] = parseCsv(text);
    expect(header).toEqual(columns);
    expect(Object.fromEntries(header.map((name, i) => [name, cells[i]]))).toEqual({ reference: 'CUS_1', email: 'a@b.c', name: 'Ọlá "Ade", Jr.\nline 2', phone: '', metadata: '{}', created_at: '2026-01-01T00:00:00.000Z' });
  });

  it('has a column for every field of each type\'s list response (no field silently dropped)', () => {
    // The top-level names every list response has, in order; nested objects appear as their dotted children.
    const tops = (type: keyof typeof EXPORT_COLUMNS) => [...new Set(EXPORT_COLUMNS[type].map((c) => c.name.split('.')[0]))];
    expect(tops('payments')).toEqual(Object.keys(payment));
    expect(tops('refunds')).toEqual(['reference', 'payment_reference', 'amount', 'currency', 'reason', 'status', 'created_at', 'processed_at']);
  });
});
