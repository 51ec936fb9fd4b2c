/**
 * The bytes of every signed webhook body: exactly what Python's
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"))` produces for the parsed value, so a
 * receiver that re-serialises before verifying gets our bytes back, and one that hashes the raw
 * body gets them too. Differences from JSON.stringify that matter:
 * - keys sorted by Unicode code point (JS sorts UTF-16 units: differs past U+FFFF);
 * - every character outside printable ASCII escaped as \uXXXX (Python's ensure_ascii default);
 * - floats below 1e-4 written in Python's exponent form (`1e-05`, JS writes `0.00001`).
 * Receivers depend on these bytes: change nothing here without the Python check in its spec.
 */
export function pythonCompatibleJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return pythonNumber(value);
    case 'string':
      return pythonString(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(pythonCompatibleJson).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => compareCodePoints(a, b));
      return `{${entries.map(([k, v]) => `${pythonString(k)}:${pythonCompatibleJson(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`pythonCompatibleJson: ${typeof value} is not JSON`);
  }
}

function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError('pythonCompatibleJson: non-finite number');
  // JS writes integers below 1e21 without exponent; Python reads those as int and writes them back alike.
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : String(n);
  // Otherwise Python holds a float and writes repr(): the same shortest digits as JS, in fixed
  // notation when the decimal exponent is in [-4, 16), else d.ddde±XX.
  const [mantissa, expText] = n.toExponential().split('e');
  const exponent = Number(expText);
  if (exponent >= -4 && exponent < 16) return String(n);
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** Printable ASCII but `"` and `\`: written as it is (most keys and values). */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function pythonString(s: string): string {
  if (PLAIN_ASCII.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const unit = s.charCodeAt(i);
    if (SHORT_ESCAPES[ch]) out += SHORT_ESCAPES[ch];
    else if (unit < 0x20 || unit > 0x7e) out += `\\u${unit.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Orders by Unicode code point, as Python compares str (a lone surrogate counts as its own value).
 * Compares UTF-16 units while they say the same (they do below the surrogates): every object's keys
 * of every webhook body are sorted with it, and they are nearly always ASCII.
 */
export function compareCodePoints(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // The units before are equal, and a unit below the surrogates is its own code point.
    if (x < 0xd800 && y < 0xd800) return x - y;
    return compareAllCodePoints(a, b);
  }
  // A prefix in UTF-16 units is one in code points too, or ends in a lone lead surrogate where the
  // other has a pair (a smaller value): the shorter comes first either way.
  return a.length - b.length;
}

function compareAllCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
