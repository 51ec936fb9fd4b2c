const DAY_MS = 86_400_000;

/** A calendar day in UTC, `YYYY-MM-DD`. */
export type UtcDay = `${number}-${number}-${number}`;

export function utcDayOf(instant: Date): UtcDay {
  return instant.toISOString().slice(0, 10) as UtcDay;
}

export function dayAfter(day: UtcDay, days = 1): UtcDay {
  return utcDayOf(new Date(startOf(day).getTime() + days * DAY_MS));
}

/** Midnight UTC at the start of `day`. */
export function startOf(day: UtcDay): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** The Monday of the week (Monday to Sunday, UTC) that holds `day`. */
export function mondayOf(day: UtcDay): UtcDay {
  const daysSinceMonday = (startOf(day).getUTCDay() + 6) % 7;
  return dayAfter(day, -daysSinceMonday);
}
