import { BODY_DATE_PATTERN, QUERY_DATE_PATTERN, bodyDateSchema, queryDateSchema } from "./contract";

/**
 * The partner API writes dates two ways (request bodies dd-MM-yyyy, query parameters yyyy-MM-dd);
 * the app uses ISO dates (yyyy-MM-dd) everywhere and converts only here.
 */

export function isIsoDate(value: string): boolean {
  return queryDateSchema.safeParse(value).success;
}

/** "2026-03-05" -> "05-03-2026" */
export function toBodyDate(isoDate: string): string {
  const match = isIsoDate(isoDate) ? QUERY_DATE_PATTERN.exec(isoDate) : null;
  if (!match) throw new RangeError("expected an ISO date (yyyy-MM-dd)");
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** "05-03-2026" -> "2026-03-05" */
export function fromBodyDate(bodyDate: string): string {
  const match = bodyDateSchema.safeParse(bodyDate).success ? BODY_DATE_PATTERN.exec(bodyDate) : null;
  if (!match) throw new RangeError("expected a body date (dd-MM-yyyy)");
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** Query dates are ISO dates already: validated, passed through. */
export function toQueryDate(isoDate: string): string {
  if (!isIsoDate(isoDate)) throw new RangeError("expected an ISO date (yyyy-MM-dd)");
  return isoDate;
}
