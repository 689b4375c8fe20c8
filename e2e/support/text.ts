import { centsFromAmount, formatMoney } from "@/lib/financing/money";
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

/** Cents as the UI writes them in `language`: "1.234,50 €", "€1,234.50" (the app's own formatter). */
export function euros(cents: number, language: UiLanguage): string {
  return formatMoney({ cents, currency: "EUR" }, language === "es" ? "es-ES" : "en-GB");
}

/** A JSON amount (1234.5) as cents, the way the app turns amounts into cents. */
export const cents = centsFromAmount;
