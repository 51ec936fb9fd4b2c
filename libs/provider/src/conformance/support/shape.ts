/**
 * A small structural check for wire objects: field names and JSON types as the documentation
 * gives them. `integer` is a whole JSON number (Paystack's amounts in subunits: kobo, pesewas,
 * cents); `iso-date` an ISO 8601 string; an array of kinds means any of them.
 */
export type Kind = 'string' | 'integer' | 'boolean' | 'null' | 'object' | 'array' | 'iso-date';
export interface Shape {
  [field: string]: Kind | readonly Kind[] | Shape;
}

/** The fields of `value` that do not have the documented kind (empty: it conforms). */
export function shapeErrors(value: unknown, shape: Shape, path = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path || 'value'}: expected an object`];
  const record = value as Record<string, unknown>;
  const errors: string[] = [];
  for (const [field, expected] of Object.entries(shape)) {
    const where = path ? `${path}.${field}` : field;
    if (!(field in record)) {
      errors.push(`${where}: missing`);
      continue;
    }
    if (typeof expected === 'object' && !Array.isArray(expected)) {
      errors.push(...shapeErrors(record[field], expected as Shape, where));
      continue;
    }
    const kinds = (Array.isArray(expected) ? expected : [expected]) as readonly Kind[];
    if (!kinds.some((kind) => isKind(record[field], kind))) errors.push(`${where}: expected ${kinds.join(' | ')}, got ${JSON.stringify(record[field])}`);
  }
  return errors;
}

function isKind(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'iso-date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value);
  }
}
