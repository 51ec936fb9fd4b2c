/** Times in the user's own zone and locale (the API sends ISO 8601 in UTC). */
export function formatTime(iso: string | null | undefined, empty = '—'): string {
  return iso ? new Date(iso).toLocaleString() : empty;
}
