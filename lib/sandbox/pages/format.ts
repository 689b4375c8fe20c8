/**
 * Figures on the hosted pages: money the way a Spanish provider prints it ("1.234,50 €"), from the
 * integer cents the engine keeps, and rates with two decimals ("9,95 %").
 */

// `useGrouping: "always"`: es-ES leaves four-digit amounts ungrouped by default ("1234,50 €").
const EUR = new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR", useGrouping: "always" });
const TWO_DECIMALS = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "always" });

/** Cents to "1.234,50 €"; the space before the sign is a no-break space, so it never wraps alone. */
export function formatMoney(cents: number): string {
  return EUR.format(cents / 100);
}

/** A percentage (9.95) to "9,95 %", with a no-break space like the amounts. */
export function formatPercent(percent: number): string {
  return `${TWO_DECIMALS.format(percent)}\u00a0%`;
}
