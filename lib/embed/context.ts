import { isLocale, type Locale } from "@/lib/i18n/locales";

/**
 * Embedded mode, carried in the checkout's URLs (no cookie: a browser may refuse cookies to a
 * third-party frame): `?embed=<the partner page's origin>` and, when the customer picks a
 * language in the frame, `&lang=en`. The origin is trusted only once it is one of the session's
 * partner's allowed origins; it is then the only target of the frame's postMessage calls.
 */
export const EMBED_PARAM = "embed";
export const EMBED_LANG_PARAM = "lang";
/** On the status page right after a plan is chosen: hand the customer over to the provider. */
export const HANDOFF_PARAM = "handoff";
/**
 * Set (top level, first-party) when an embedded customer leaves for the provider: when they come
 * back to our status page at the top level with a final outcome, it sends them on to the partner's
 * page (the session's return URL), where the checkout frame shows the outcome.
 */
export const EMBED_RETURN_COOKIE = "checkout_embedded";

export interface EmbedContext {
  /** The partner page's origin: the postMessage target, checked against the partner's allowed origins. */
  parentOrigin: string;
  /** The language the customer chose inside the frame. */
  locale?: Locale;
}

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `http(s)://host[:port]` exactly, as URL.origin writes it. */
export function isOrigin(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 300) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}

/** The embedded mode of a checkout page's request, if its parent origin is one of the partner's. */
export function embedContext(params: SearchParams, allowedOrigins: readonly string[]): EmbedContext | undefined {
  const parent = first(params[EMBED_PARAM]);
  if (!isOrigin(parent) || !allowedOrigins.includes(parent)) return undefined;
  const lang = first(params[EMBED_LANG_PARAM]);
  return { parentOrigin: parent, ...(isLocale(lang) ? { locale: lang } : {}) };
}

/**
 * The embedded mode a form sent back (hidden fields). Not checked against the partner here: it only
 * decides where the action leads, and the page there checks it again before trusting it.
 */
export function embedFromForm(parent: unknown, lang: unknown): EmbedContext | undefined {
  if (!isOrigin(parent)) return undefined;
  return { parentOrigin: parent, ...(isLocale(lang) ? { locale: lang } : {}) };
}

/** A path of this app, keeping the embedded mode (and adding `extra` query parameters). */
export function embedHref(path: string, embed: EmbedContext | undefined, extra: Record<string, string> = {}): string {
  const url = new URL(path, "http://app.invalid");
  if (embed) {
    url.searchParams.set(EMBED_PARAM, embed.parentOrigin);
    if (embed.locale) url.searchParams.set(EMBED_LANG_PARAM, embed.locale);
  }
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Hidden form fields that carry the embedded mode through a server action. */
export function embedFields(embed: EmbedContext | undefined): Record<string, string> {
  if (!embed) return {};
  return { [EMBED_PARAM]: embed.parentOrigin, ...(embed.locale ? { [EMBED_LANG_PARAM]: embed.locale } : {}) };
}

/** The frame's language choice, for what renders before the partner is known (page titles). */
export function embedLocaleHint(params: SearchParams): Locale | undefined {
  const lang = first(params[EMBED_LANG_PARAM]);
  return first(params[EMBED_PARAM]) !== undefined && isLocale(lang) ? lang : undefined;
}
