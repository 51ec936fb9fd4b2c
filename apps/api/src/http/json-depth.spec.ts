import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';

const nested = (depth: number, open = '{"a":', close = '}') => `${open.repeat(depth)}1${close.repeat(depth)}`;

describe('JSON nesting depth', () => {
  it(`allows ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, objects and arrays alike`, () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH, '[', ']'), MAX_JSON_DEPTH)).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1, '[{"a":', '}]'), MAX_JSON_DEPTH)).toBe(true);
  });

  it('measures depth, not how many containers there are', () => {
    // body → items → item → a → {b} → b: six levels, a thousand times over.
    const wide = JSON.stringify({ items: Array.from({ length: 1000 }, () => ({ a: [{ b: [] }] })) });
    expect(exceedsJsonDepth(wide, 6)).toBe(false);
    expect(exceedsJsonDepth(wide, 5)).toBe(true);
  });

  it('does not count brackets inside strings, whatever they escape', () => {
    for (const text of ['{"a":"{{{{[[[["}', '{"a":"\\"{{{{"}', '{"a\\\\":"[[[["}', '{"a":"\\\\\\"[[[["}', '{"{{{{":1}']) {
      expect(exceedsJsonDepth(text, 1)).toBe(false);
    }
    // A string ended by a quote after an escaped backslash: the brackets after it count.
    expect(exceedsJsonDepth('{"a":"x\\\\","b":[[1]]}', 2)).toBe(true);
  });

  it('refuses thousands of levels, closed or not, without recursion', () => {
    expect(exceedsJsonDepth(nested(5000), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth('['.repeat(1024 * 1024), MAX_JSON_DEPTH)).toBe(true);
  });

  it('leaves malformed text (an unterminated string) to the JSON parser', () => {
    expect(exceedsJsonDepth('{"a":"[[[[[', 1)).toBe(false);
  });
});
