import { CHECKOUT_PAGE_HEADER } from "@/lib/http/checkout-page";
import { CHECKOUT_SESSION_ID_SOURCE } from "@/lib/http/checkout-session-id";
import { REQUEST_ID_HEADER } from "@/lib/logging/request-id";
import { pageCsp } from "./csp";

/**
 * The headers of a page request, as pure functions: what proxy.ts sets on every page it passes on.
 *
 * On the request (for the page to read): the nonce Next puts on its scripts, the CSP it reads it
 * from, the request id, and a checkout page's path and query (lib/http/checkout-page.ts; a value
 * the client sent is dropped). On the response: the CSP, the request id, and `X-Frame-Options:
 * DENY` where no partner may frame the page (for browsers older than frame-ancestors).
 */

/** A checkout session's URLs (pages and route handlers), with its id: group 1. */
export const CHECKOUT_PATH = new RegExp(String.raw`^/checkout/(${CHECKOUT_SESSION_ID_SOURCE})(?:/|$)`);

/** The checkout's pages (not its route handlers: return, status data), whatever the session id looks like. */
export const CHECKOUT_PAGE_PATH = /^\/checkout\/[^/]+(?:\/offers|\/status|\/unavailable)?\/?$/;

export interface PageRequest {
  pathname: string;
  /** The query as `URL.search` gives it ("" or "?…"). */
  search: string;
  requestId: string;
  nonce: string;
  /** Who may frame the page (its session's partner's origins); [] for none. */
  frameAncestors: readonly string[];
  https: boolean;
  appUrl: string;
  financingBaseUrl: string;
  development: boolean;
}

export interface PageHeaders {
  /** Set on the request (lowercase names). */
  request: Record<string, string>;
  /** Removed from the request first. */
  dropFromRequest: string[];
  response: Record<string, string>;
}

export function pageHeaders(page: PageRequest): PageHeaders {
  const checkoutPage = CHECKOUT_PAGE_PATH.test(page.pathname);
  const policy = pageCsp({
    nonce: page.nonce,
    frameAncestors: page.frameAncestors,
    // Without JavaScript, choosing a plan is a form post redirected to the provider's checkout.
    formAction: CHECKOUT_PATH.test(page.pathname) ? formTargets(page.appUrl, page.financingBaseUrl) : [new URL(page.appUrl).origin],
    https: page.https,
    development: page.development,
  });
  const request: Record<string, string> = {
    "x-nonce": page.nonce,
    [REQUEST_ID_HEADER]: page.requestId,
    "content-security-policy": policy,
  };
  if (checkoutPage) request[CHECKOUT_PAGE_HEADER] = `${page.pathname}${page.search}`;
  const response: Record<string, string> = { "Content-Security-Policy": policy, "X-Request-Id": page.requestId };
  if (page.frameAncestors.length === 0) response["X-Frame-Options"] = "DENY";
  return { request, dropFromRequest: [CHECKOUT_PAGE_HEADER], response };
}

/** Whether the request came over https: to us directly, or to the proxy in front (as Next decides it). */
export function isHttps(encrypted: boolean, forwardedProto: string | null | undefined): boolean {
  return encrypted || (forwardedProto ?? "").includes("https");
}

/** Our public origin, the partner API's (the sandbox's hosted pages), and any https provider. */
function formTargets(appUrl: string, financingBaseUrl: string): string[] {
  return [...new Set([new URL(appUrl).origin, new URL(financingBaseUrl).origin, "https:"])];
}
