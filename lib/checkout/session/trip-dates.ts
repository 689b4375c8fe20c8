/**
 * The calendar a booking's dates are checked against. The agencies sell from Spain, so a trip's
 * "today" is the calendar day in Europe/Madrid (peninsular Spain), whatever zone the server runs
 * in: a departure today is accepted until midnight in Madrid, and one dated yesterday is refused
 * from midnight in Madrid. Pure: the schema, the demo trip, tests and scripts share it.
 */

export const TRIP_TIME_ZONE = "Europe/Madrid";

// en-CA writes a date as yyyy-MM-dd; the parts are read one by one rather than trusting that.
const madridDay = new Intl.DateTimeFormat("en-CA", { timeZone: TRIP_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** Today in Europe/Madrid, as yyyy-MM-dd. */
export function tripToday(now = new Date()): string {
  const parts = Object.fromEntries(madridDay.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The day `days` days after a yyyy-MM-dd day (before it when negative), as yyyy-MM-dd. */
export function isoDayAfter(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The day `days` days from today in Europe/Madrid: what fixtures and the demo trip book. */
export function tripDayFromToday(days: number, now = new Date()): string {
  return isoDayAfter(tripToday(now), days);
}
