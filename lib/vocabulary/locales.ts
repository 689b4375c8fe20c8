/** The languages the checkout speaks (lib/i18n's `Locale`): Spanish, the default, and English. */
export const LOCALES = ["es", "en"] as const;
export type Locale = (typeof LOCALES)[number];
