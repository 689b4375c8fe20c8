import { formatMoney, type Money } from "@/lib/financing/money";
import type { Locale } from "./locales";

/** Formatting for the customer's locale: Spain's and Britain's conventions. */

export function intlLocale(locale: Locale): string {
  return locale === "es" ? "es-ES" : "en-GB";
}

/** Formatters are built once per locale (building one costs far more than using it). */
function perLocale<T>(build: (intl: string) => T): (locale: Locale) => T {
  const built = new Map<Locale, T>();
  return (locale) => {
    let value = built.get(locale);
    if (value === undefined) {
      value = build(intlLocale(locale));
      built.set(locale, value);
    }
    return value;
  };
}

const percentFormat = perLocale(
  (intl) => new Intl.NumberFormat(intl, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }),
);
const dateFormat = perLocale((intl) => new Intl.DateTimeFormat(intl, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }));

export function formatAmount(value: Money, locale: Locale): string {
  return formatMoney(value, intlLocale(locale));
}

/** A rate given in percent (9.95 means 9.95 %), always with two decimals, as credit law shows them. */
export function formatPercent(percent: number, locale: Locale): string {
  return percentFormat(locale).format(percent / 100);
}

/** An ISO date (yyyy-MM-dd) as the customer reads it; UTC, so no time zone shifts the day. */
export function formatDate(isoDate: string, locale: Locale): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return dateFormat(locale).format(date);
}
