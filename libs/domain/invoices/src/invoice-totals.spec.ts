import { DEFAULT_AMOUNT_LIMITS, DomainError } from '@gateway/platform';
import { type LineItemInput, priceLineItems } from './invoice-totals';

const price = (items: LineItemInput[], currency: 'NGN' | 'USD' = 'NGN') => priceLineItems(items, currency, DEFAULT_AMOUNT_LIMITS);
const line = (quantity: number, unit_price: number, description = 'Item'): LineItemInput => ({ description, quantity, unit_price });
function refusal(items: LineItemInput[], currency: 'NGN' | 'USD' = 'NGN'): Record<string, string[]> {
  try {
    price(items, currency);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return (error as DomainError).fieldErrors as Record<string, string[]>;
  }
  throw new Error('expected a validation_error');
}

describe('priceLineItems (invoice totals, exact to the cent)', () => {
  it('3 × 33.33 + 1 × 0.01 is exactly 100.00', () => {
    const { total, lineItems } = price([line(3, 33.33), line(1, 0.01)], 'USD');
    expect(total.toString()).toBe('100.00');
    expect(lineItems.map((l) => l.amount)).toEqual(['99.99', '0.01']);
  });

  it('100.10 + 200.20 + 300.30 is exactly 600.60 (no float drift)', () => {
    expect(price([line(1, 100.1), line(1, 200.2), line(1, 300.3)]).total.toString()).toBe('600.60');
  });

  it('a decimal quantity rounds each line half-up to the cent before summing: 2.5 × 33.33 = 83.325 → 83.33', () => {
    const { total, lineItems } = price([line(2.5, 33.33), line(2.5, 33.33)]);
    expect(lineItems[0]).toEqual({ description: 'Item', quantity: '2.5', unitPrice: '33.33', amount: '83.33' });
    expect(total.toString()).toBe('166.66');
  });

  it('0.0001 × 1,000,000.00 is 100.00 exactly; a 4-decimal quantity is accepted', () => {
    expect(price([line(0.0001, 1_000_000)]).total.toString()).toBe('100.00');
  });

  it('trims descriptions and keeps them as given otherwise (escaping is the page’s job)', () => {
    expect(price([line(1, 150, '  <b>Design</b> & "build"  ')]).lineItems[0].description).toBe('<b>Design</b> & "build"');
  });

  it('refuses every bad field at once, by path', () => {
    const errors = refusal([
      { description: '', quantity: 1, unit_price: 100 },
      line(0, 100),
      line(1.23456, 100),
      line(1, 10.005),
      line(1, -5),
      line(2_000_000, 1),
      { description: 'x'.repeat(201), quantity: 1, unit_price: 100 },
    ]);
    expect(Object.keys(errors).sort()).toEqual([
      'line_items.0.description',
      'line_items.1.quantity',
      'line_items.2.quantity',
      'line_items.3.unit_price',
      'line_items.4.unit_price',
      'line_items.5.quantity',
      'line_items.6.description',
    ]);
    expect(errors['line_items.2.quantity']).toEqual(['quantity must have at most 4 decimal places']);
  });

  it('refuses a quantity written with an exponent (1e-7)', () => {
    expect(refusal([line(1e-7, 100)])['line_items.0.quantity']).toEqual(['quantity must have at most 4 decimal places']);
  });

  it('refuses a line that rounds to 0.00 (0.0001 × 0.01)', () => {
    expect(Object.keys(refusal([line(0.0001, 0.01), line(1, 200)]))).toEqual(['line_items.0']);
  });

  it('refuses no items and more than 100 items', () => {
    expect(refusal([])['line_items']).toBeDefined();
    expect(refusal(Array.from({ length: 101 }, () => line(1, 100)))['line_items']).toEqual(['line_items must have at most 100 items']);
  });

  it('refuses a total below the currency minimum (NGN 100) and above the maximum', () => {
    expect(refusal([line(1, 99.99)])['line_items'][0]).toContain('at least 100.00 NGN');
    expect(refusal([line(2, 60_000_000)])['line_items'][0]).toContain('at most 100000000.00');
  });
});
