/** One field of a before/after pair: its value on each side (undefined: absent) and whether it changed. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

/** A value as text for the diff view: strings as they are, anything else as JSON; absent as "—". */
export function showValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * The fields of an audit row's `before` and `after` states, in a stable order (changed ones first,
 * then alphabetical). Values are compared as their JSON text: the states are plain JSON.
 */
export function diffStates(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields
    .map((field) => {
      const was = before ? before[field] : undefined;
      const is = after ? after[field] : undefined;
      return { field, before: was, after: is, changed: JSON.stringify(was) !== JSON.stringify(is) };
    })
    .sort((x, y) => Number(y.changed) - Number(x.changed) || x.field.localeCompare(y.field));
}
