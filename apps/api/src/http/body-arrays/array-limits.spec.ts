import 'reflect-metadata';
import * as contracts from '@gateway/contracts';
import { BulkPaymentsRequest, InitializePaymentRequest, MAX_SPLITS } from '@gateway/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, getMetadataStorage, IsArray, IsString, ValidateNested } from 'class-validator';
import { oversizedArrays } from './array-limits';

/** An array of `length` whose items cannot be read: proves a check looked at the length only. */
function unreadable(length: number): unknown[] {
  return new Proxy(new Array<unknown>(length).fill({}), {
    get(target, property, receiver) {
      if (typeof property === 'string' && /^\d+$/.test(property)) throw new Error(`item ${property} was read`);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

class Line {
  @IsArray()
  @ArrayMaxSize(2)
  @IsString({ each: true })
  tags: string[];
}

class Invoice {
  @IsArray()
  @ArrayMaxSize(3)
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines: Line[];

  @ValidateNested()
  @Type(() => Invoice)
  previous?: Invoice;
}

describe('body array limits, checked before any item is read', () => {
  it('refuses an array over its @ArrayMaxSize by its length alone', () => {
    expect(oversizedArrays(InitializePaymentRequest, { amount: 1, splits: unreadable(MAX_SPLITS + 1) })).toEqual({ splits: [`splits must contain no more than ${MAX_SPLITS} elements`] });
    expect(oversizedArrays(BulkPaymentsRequest, { items: unreadable(10_001) })).toEqual({ items: ['items must contain no more than 10000 elements'] });
  });

  it('accepts arrays within their limit, and leaves every other rule to validation', () => {
    expect(oversizedArrays(InitializePaymentRequest, { splits: new Array(MAX_SPLITS).fill('not a split') })).toEqual({});
    expect(oversizedArrays(InitializePaymentRequest, { splits: 'not an array' })).toEqual({});
    expect(oversizedArrays(InitializePaymentRequest, 'not an object')).toEqual({});
  });

  it("lowers a limit for a route (a configured maximum), but never raises the DTO's", () => {
    expect(oversizedArrays(BulkPaymentsRequest, { items: unreadable(1001) }, { items: 1000 })).toEqual({ items: ['items must contain no more than 1000 elements'] });
    expect(oversizedArrays(BulkPaymentsRequest, { items: new Array(1000).fill({}) }, { items: 1000 })).toEqual({});
    expect(oversizedArrays(BulkPaymentsRequest, { items: unreadable(10_001) }, { items: 50_000 })).toEqual({ items: ['items must contain no more than 10000 elements'] });
  });

  it('follows nested DTOs, checking each array before visiting its items, with the path of each', () => {
    expect(oversizedArrays(Invoice, { lines: unreadable(4) })).toEqual({ lines: ['lines must contain no more than 3 elements'] });
    const body = { lines: [{ tags: ['a'] }, { tags: unreadable(3) }], previous: { lines: [{ tags: unreadable(5) }], previous: { lines: unreadable(9) } } };
    expect(oversizedArrays(Invoice, body, {}, 'items.7')).toEqual({
      'items.7.lines.1.tags': ['tags must contain no more than 2 elements'],
      'items.7.previous.lines.0.tags': ['tags must contain no more than 2 elements'],
      'items.7.previous.previous.lines': ['lines must contain no more than 3 elements'],
    });
  });

  it('finds no array in the contracts without an item limit', () => {
    const arrays: string[] = [];
    const unbounded: string[] = [];
    for (const [name, value] of Object.entries(contracts)) {
      if (typeof value !== 'function') continue;
      const metadata = getMetadataStorage().getTargetValidationMetadatas(value, '', true, false);
      const limited = new Set(metadata.filter((m) => m.name === 'arrayMaxSize').map((m) => m.propertyName));
      for (const m of metadata.filter((m) => m.name === 'isArray')) {
        arrays.push(`${name}.${m.propertyName}`);
        if (!limited.has(m.propertyName)) unbounded.push(`${name}.${m.propertyName}`);
      }
    }
    expect(arrays).toEqual(expect.arrayContaining(['BulkPaymentsRequest.items', 'InitializePaymentRequest.splits', 'CreateWebhookRequest.events']));
    expect(unbounded).toEqual([]);
  });
});
