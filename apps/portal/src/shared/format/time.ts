/** Times in the user's own zone and locale (the API sends ISO 8601 in UTC). */
export function formatTime(iso: string | null | undefined, empty = '—'): string {
  return iso ? new Date(iso).toLocaleString() : empty;
}

/** A `datetime-local` field's value is the user's own wall-clock time; the API wants an instant. */
export function localInputToIso(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
