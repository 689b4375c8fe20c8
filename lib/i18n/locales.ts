import { LOCALES, type Locale } from "@/lib/vocabulary/locales";

/** The checkout speaks Spanish (the default: most customers) and English; the list is a column's type too. */
export { LOCALES, type Locale };
export const DEFAULT_LOCALE: Locale = "es";
export const LOCALE_COOKIE = "locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The locale to use: the customer's own choice (cookie) first, then what the partner asked for the
 * session, then the browser's Accept-Language, then Spanish.
 */
export function resolveLocale(options: { cookie?: string | null; sessionLocale?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(options.cookie)) return options.cookie;
  if (isLocale(options.sessionLocale)) return options.sessionLocale;
  return fromAcceptLanguage(options.acceptLanguage ?? "") ?? DEFAULT_LOCALE;
}

/** The best of our locales in an Accept-Language header, by its q-values. */
export function fromAcceptLanguage(header: string): Locale | undefined {
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { language: tag.toLowerCase().split("-")[0] ?? "", q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => entry.language !== "" && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((entry) => entry.language).find(isLocale);
}
