import "server-only";
import { cookies, headers } from "next/headers";
import { LOCALE_COOKIE, resolveLocale, type Locale } from "./locales";
import { MESSAGES, type Messages } from "./messages";

/**
 * The request's locale (design: the customer's own choice in the cookie, then the session's
 * locale the partner asked for, then Accept-Language, then Spanish).
 */
export async function getLocale(sessionLocale?: string | null): Promise<Locale> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return resolveLocale({
    cookie: cookieStore.get(LOCALE_COOKIE)?.value,
    sessionLocale,
    acceptLanguage: headerList.get("accept-language"),
  });
}

export function getMessages(locale: Locale): Messages {
  return MESSAGES[locale];
}
