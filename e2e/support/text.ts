/** Words and figures as the UI writes them, for assertions. */

/** A RegExp matching `text` literally. */
export function literally(text: string, flags = ""): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
}

/** The languages the checkout and the back-office speak (lib/i18n/locales.ts). */
export type UiLanguage = "es" | "en";

/**
 * The language the app speaks to a browser with this `locale` option, as lib/i18n/locales.ts picks
 * it: English for `en-*`, Spanish otherwise. With no locale set, Playwright's Chromium asks for en-US.
 */
export function languageOf(locale: string | undefined): UiLanguage {
  return /^en\b/i.test(locale ?? "en-US") ? "en" : "es";
}

// TODO(after merge): import from lib/financing/money (formatMoney, centsFromAmount) once it no
// longer imports "server-only"; these two copy what it does.

/** Cents as the UI writes them in `language`: "1.234,50 €", "€1,234.50" (the Intl options of lib/financing/money.ts). */
export function euros(cents: number, language: UiLanguage): string {
  const locale = language === "es" ? "es-ES" : "en-GB";
  return new Intl.NumberFormat(locale, { style: "currency", currency: "EUR", useGrouping: "always" }).format(cents / 100);
}

/** A JSON amount (1234.5) as cents. */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}
