import type { ErrorPageRenderer, ErrorPageRequest } from "@/lib/ops/error-pages";
import { errorPageHtml } from "@/lib/i18n/error-page";
import { LOCALE_COOKIE, isLocale, resolveLocale, type Locale } from "@/lib/i18n/locales";
import { EMBED_LANG_PARAM, EMBED_PARAM } from "./context";

/**
 * The page a failed page is replaced with (lib/ops/error-pages.ts keeps the mechanism and calls
 * this, registered at start-up): the app's own page (lib/i18n/error-page.ts) in the page's
 * language. Here because choosing that language needs the embedded checkout's parameters.
 */
export const renderErrorPage: ErrorPageRenderer = (page) =>
  errorPageHtml({
    kind: page.kind,
    locale: isLocale(page.pageLocale) ? page.pageLocale : requestLocale(page.request),
    retryHref: page.retryHref,
    stylesheets: page.stylesheets,
    requestId: page.requestId,
    traceId: page.traceId,
  });

/**
 * The request's language when the page did not get to say: the partner page's (an embedded
 * checkout's `?embed=…&lang=…`), then the customer's cookie, then Accept-Language (the session's
 * own cannot be read when the database is down).
 */
export function requestLocale(request: ErrorPageRequest["request"]): Locale {
  const query = new URL(request.url ?? "/", "http://app.invalid").searchParams;
  const lang = query.get(EMBED_LANG_PARAM);
  if (query.has(EMBED_PARAM) && isLocale(lang)) return lang;
  const cookie = /(?:^|;\s*)([^=;\s]+)=([^;]*)/g;
  let chosen: string | undefined;
  for (const match of (request.headers.cookie ?? "").matchAll(cookie)) {
    if (match[1] === LOCALE_COOKIE) chosen = match[2];
  }
  const acceptLanguage = request.headers["accept-language"];
  return resolveLocale({ cookie: chosen, acceptLanguage: typeof acceptLanguage === "string" ? acceptLanguage : undefined });
}
