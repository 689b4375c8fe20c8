import { formatMoney, type Money } from "@/lib/financing/money";
import type { Locale } from "./locales";

/** Formatting for the customer's locale: Spain's and Britain's conventions. */

export function intlLocale(locale: Locale): string {
  return locale === "es" ? "es-ES" : "en-GB";
}

export function formatAmount(value: Money, locale: Locale): string {
  return formatMoney(value, intlLocale(locale));
}

/** A rate given in percent (9.95 means 9.95 %), always with two decimals, as credit law shows them. */
export function formatPercent(percent: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(percent / 100);
}

/** An ISO date (yyyy-MM-dd) as the customer reads it; UTC, so no time zone shifts the day. */
export function formatDate(isoDate: string, locale: Locale): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return new Intl.DateTimeFormat(intlLocale(locale), { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(date);
}
