/**
 * The bytes the gateway signs for a parsed webhook payload: exactly what Python's
 * `json.dumps(obj, sort_keys=True, separators=(",", ":"))` writes, which is also what the gateway
 * sends. A receiver that only has the parsed payload (its framework parsed the body) re-serialises
 * it with this and verifies those bytes, as the spec's reference receiver in Python does.
 * Differences from JSON.stringify that matter:
 * - keys sorted by Unicode code point (JS sorts UTF-16 units: differs past U+FFFF);
 * - every character outside printable ASCII escaped as \uXXXX (Python's ensure_ascii default);
 * - floats below 1e-4 or from 1e16 written in Python's exponent form (`1e-05`, `1e+21`).
 * It mirrors the gateway's own writer (libs/domain/webhooks python-compatible-json.ts), which this
 * package may not import; the reliability tier's signature row checks the two agree.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return pythonNumber(value);
    case 'string':
      return pythonString(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => compareCodePoints(a, b));
      return `{${entries.map(([k, v]) => `${pythonString(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
  }
}

function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError('canonicalJson: non-finite number');
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

function pythonString(s: string): string {
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

/** Orders by Unicode code point, as Python compares str (a lone surrogate counts as its own value). */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
