import { intlLocale } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";

/**
 * Times as the agency's staff read them: in Spain's time zone (the agencies' market), with the
 * zone named, so a time is never ambiguous on a shared screen.
 */
export const ADMIN_TIME_ZONE = "Europe/Madrid";

export function formatDateTime(value: Date | string, locale: Locale): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return (
    new Intl.DateTimeFormat(intlLocale(locale), {
      dateStyle: "medium",
      timeStyle: "medium",
      timeZone: ADMIN_TIME_ZONE,
    }).format(date) + ` (${zoneName(date, locale)})`
  );
}

function zoneName(date: Date, locale: Locale): string {
  const part = new Intl.DateTimeFormat(intlLocale(locale), { timeZone: ADMIN_TIME_ZONE, timeZoneName: "short" })
    .formatToParts(date)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? ADMIN_TIME_ZONE;
}

/** A signed number of seconds with one decimal: "+0.4", "-12.0". */
export function formatSignedSeconds(ms: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" }).format(
    ms / 1000,
  );
}

/**
 * A checkout session's id as staff views show it (operation page, notifications, CSV): its first
 * characters, enough to match it with the partner's records. The whole id opens the customer's
 * checkout, which none of those readers needs to do.
 */
export function sessionIdHint(sessionId: string): string {
  return sessionId.length > 10 ? `${sessionId.slice(0, 10)}…` : sessionId;
}

/** The customer as a session's row shows them: their name, or that their data is erased or unavailable. */
export function customerLabel(
  session: { customerName: string | undefined; customerData: "none" | "present" | "erased" | "unavailable" },
  common: { notAvailable: string; customerErased: string; customerUnavailable: string },
): string {
  if (session.customerData === "erased") return common.customerErased;
  if (session.customerData === "unavailable") return common.customerUnavailable;
  return session.customerName ?? common.notAvailable;
}
