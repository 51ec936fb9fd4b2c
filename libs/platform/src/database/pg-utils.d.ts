/** pg's own mapping of a JavaScript value to a parameter's text (pg 8.16; pg publishes no types for this file). */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): unknown;
}
