/**
 * The second reference verifier's bytes (docs/webhooks.md, "Verifying a delivery"): the parsed
 * payload re-serialised as Python's `json.dumps(payload, sort_keys=True, separators=(",", ":"))`
 * writes it — keys sorted by code point, no whitespace, every character outside printable ASCII
 * as \uXXXX, floats as Python's repr. The gateway sends exactly these bytes.
 *
 * A copy of libs/domain/webhooks/src/python-compatible-json.ts: the portal's bundle may import
 * nothing but types from the server side (apps/portal/README.md). The spec next to this file holds
 * it to the documented example; the server's copy is checked against Python itself.
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
      throw new TypeError(`${typeof value} is not JSON`);
  }
}

function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError('a non-finite number is not JSON');
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : String(n);
  // Python's float repr: the same shortest digits as JS; fixed notation for exponents in [-4, 16).
  const [mantissa, expText] = n.toExponential().split('e');
  const exponent = Number(expText);
  if (exponent >= -4 && exponent < 16) return String(n);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
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

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
