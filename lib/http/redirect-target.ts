import { textProblem } from "@/lib/validation/text";

/**
 * Where a form may send the browser next (a `returnTo`, a `next`): a path on this site, checked
 * before it reaches a `Location` header. Refused: anything not starting with one `/` (an absolute
 * URL, a protocol-relative `//host` or `/\host`), anything that resolves to another origin, control
 * characters (CR/LF would split the header; the URL parser would silently drop them and change the
 * target) and lone surrogates. Characters outside ASCII are percent-encoded, as the URL parser
 * writes them: a header value above U+00FF makes Node throw, a 500 instead of a redirect.
 * Pure: actions, pages and tests use it.
 */

const ORIGIN_PROBE = "http://origin.invalid";

export const REDIRECT_TARGET_MAX_LENGTH = 2000;

export interface RedirectTargetRules {
  /** Only this path and what lies below it (`/admin`: `/admin`, `/admin/x`, `/admin?x`). */
  under?: string;
}

/** The target as a same-origin path, query and fragment, ASCII only; undefined when it is not one. */
export function localRedirectTarget(raw: unknown, rules: RedirectTargetRules = {}): string | undefined {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > REDIRECT_TARGET_MAX_LENGTH) return undefined;
  if (textProblem(raw) !== undefined || /[\u0080-\u009f]/.test(raw)) return undefined;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return undefined;
  let url: URL;
  try {
    url = new URL(raw, ORIGIN_PROBE);
  } catch {
    return undefined;
  }
  if (url.origin !== ORIGIN_PROBE) return undefined;
  const { under } = rules;
  if (under !== undefined && url.pathname !== under && !url.pathname.startsWith(`${under}/`)) return undefined;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // The serialised URL is percent-encoded ASCII; checked anyway, since it goes into a header.
  return /^[\u0021-\u007e]+$/.test(target) ? target : undefined;
}

/** Whether the value is a target {@link localRedirectTarget} accepts. */
export function isLocalRedirectTarget(raw: unknown, rules: RedirectTargetRules = {}): boolean {
  return localRedirectTarget(raw, rules) !== undefined;
}
