/**
 * Money as integer minor units (cents). The partner API sends amounts as JSON numbers; adding
 * those as floats drifts (0.1 + 0.2), so every amount is turned into whole cents once, at the
 * edge, and all arithmetic is on integers. Integers are exact up to 2^53 cents, far beyond a trip.
 */
export interface Money {
  /** Whole minor units: 1234.5 EUR is 123450. */
  cents: number;
  currency: string;
}

/**
 * A JSON number to cents, rounding half away from zero at the third decimal. Reads the number's
 * shortest decimal form (what the API wrote), not its binary value, so 1.005 is 101 cents, not 100.
 */
export function centsFromAmount(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError("amount must be a finite number");
  const text = Math.abs(amount).toString();
  const sign = amount < 0 ? -1 : 1;
  // Exponent forms only appear below 1e-6 or above 1e21: neither is a price, so a float multiply is fine.
  if (text.includes("e")) return sign * Math.round(Math.abs(amount) * 100);
  const [whole = "0", fraction = ""] = text.split(".");
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, "0"));
  const roundUp = fraction.length > 2 && Number(fraction[2]) >= 5;
  const result = sign * (cents + (roundUp ? 1 : 0));
  return result === 0 ? 0 : result; // no -0
}

/** Cents to the JSON number the API expects: 12345 -> 123.45 (the double JSON prints as "123.45"). */
export function amountFromCents(cents: number): number {
  assertCents(cents);
  return cents / 100;
}

/** Cents as an exact decimal string, for paths and display fall-backs: 12345 -> "123.45", 12300 -> "123". */
export function decimalFromCents(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs / 100);
  const fraction = abs % 100;
  return fraction === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(fraction).padStart(2, "0").replace(/0$/, "")}`;
}

export function money(cents: number, currency = "EUR"): Money {
  assertCents(cents);
  return { cents, currency };
}

export function moneyFromAmount(amount: number, currency: string): Money {
  return { cents: centsFromAmount(amount), currency };
}

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new RangeError(`cannot add ${a.currency} to ${b.currency}`);
  return { cents: a.cents + b.cents, currency: a.currency };
}

/**
 * One formatter per locale and currency, kept for the process: building an Intl.NumberFormat costs
 * tens of microseconds (ICU loads the locale's data), and a plans page formats a hundred amounts.
 * A handful of entries at most (two locales, the currencies seen).
 */
const MONEY_FORMATS = new Map<string, Intl.NumberFormat>();

export function formatMoney(value: Money, locale = "es-ES"): string {
  const key = `${locale}|${value.currency}`;
  let format = MONEY_FORMATS.get(key);
  if (!format) {
    // Grouping always: Spanish rules skip it below 10,000 ("1234,50 €"), which reads worse next to "12.345,00 €".
    format = new Intl.NumberFormat(locale, { style: "currency", currency: value.currency, useGrouping: "always" });
    MONEY_FORMATS.set(key, format);
  }
  return format.format(value.cents / 100);
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError("cents must be a whole number");
}
