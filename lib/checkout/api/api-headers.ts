import { getEnv } from "@/lib/config/env";
import { CURRENT_CHECKOUT_API_VERSION, requestedVersion, VERSION_HEADER, type CheckoutApiVersion } from "./versions";

/**
 * Which budget of requests an answer states (`X-RateLimit-Limit`): sessions opened, reads, or
 * actions on sessions (cancels, refunds and erasures).
 */
export type SessionsApiKind = "create" | "read" | "action";

/**
 * The headers of every answer of the checkout sessions API (its document states them), whoever
 * gives it: the routes (lib/checkout/api/api-route.ts), or the proxy refusing a request before
 * any route (a body over the limit, a path that does not decode, a version we do not have). Never
 * cached; readable by no other site's page, only this deployment's own (the API is for backends,
 * whose secret no browser should hold: the header says so rather than leaving it unsaid); the
 * per-minute budget of requests of its kind (`X-RateLimit-Limit`: sessions opened, reads of
 * sessions and events, or cancels, refunds and erasures, with one partner's secrets); and the version the
 * answer is given in.
 */
export function sessionsApiHeaders(
  kind: SessionsApiKind,
  version: CheckoutApiVersion = CURRENT_CHECKOUT_API_VERSION,
): Record<string, string> {
  const env = getEnv();
  const budget = env.sessionsApiBudget;
  const limit = {
    create: budget.createPerPartnerPerMinute,
    read: budget.readsPerPartnerPerMinute,
    action: budget.actionsPerPartnerPerMinute,
  }[kind];
  return {
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": new URL(env.APP_URL).origin,
    "X-RateLimit-Limit": String(limit),
    [VERSION_HEADER]: version,
  };
}

/**
 * The addresses of the checkout sessions API (its resources under `/api`): every answer under
 * them carries `Checkout-Api-Version`, whatever gives it (a route, the proxy, a 404 or 405), and a
 * request under them pinning a version we do not have is refused before any route. A new resource
 * of the API is added here.
 */
const CHECKOUT_API_PATH = /^\/api\/(?:checkout-sessions|events)(?:\/|$)/;

export function isCheckoutApiPath(pathname: string): boolean {
  return CHECKOUT_API_PATH.test(pathname);
}

/**
 * Which operation of the API a request is: opening a session (`POST /api/checkout-sessions`), a
 * read (the list, one session, a refund's breakdown, the event feed `/api/events`), or an action on
 * a session (its cancel, its customer data's erasure, its refund). Undefined for any other path. A method the address does not
 * take counts as the address's main one: its 405 carries the same headers.
 */
export function sessionsApiKind(method: string, pathname: string): SessionsApiKind | undefined {
  const reading = method === "GET" || method === "HEAD";
  if (pathname === "/api/checkout-sessions") return reading ? "read" : "create";
  if (pathname === "/api/events") return "read";
  const path = /^\/api\/checkout-sessions\/[^/]+(\/cancel|\/erase|\/refund)?$/.exec(pathname);
  if (!path) return undefined;
  if (path[1] === "/cancel" || path[1] === "/erase") return "action";
  if (path[1] === "/refund") return reading ? "read" : "action";
  return "read";
}

/**
 * A refusal given before the route, with the API's headers when it is an answer of the API: the
 * version on any of its addresses, the others where the operation is known.
 */
export function withSessionsApiHeaders(method: string, pathname: string, response: Response): Response {
  if (!isCheckoutApiPath(pathname)) return response;
  response.headers.set(VERSION_HEADER, CURRENT_CHECKOUT_API_VERSION);
  const kind = sessionsApiKind(method, pathname);
  if (kind) for (const [name, value] of Object.entries(sessionsApiHeaders(kind))) response.headers.set(name, value);
  return response;
}

/**
 * What the proxy does for the API before routing: a request pinning a version we do not have is
 * refused (400 `unsupported_api_version`, in the API's format and with its headers), and any other
 * is passed on with the headers the proxy puts on its answer (the version it is given in), so that
 * answers no route of ours builds (Next's 404 and 405 routes) carry them too.
 */
export function checkoutApiProxyStep(
  method: string,
  pathname: string,
  headers: Headers,
): { refusal: Response; responseHeaders?: undefined } | { refusal?: undefined; responseHeaders: Record<string, string> } {
  if (!isCheckoutApiPath(pathname)) return { responseHeaders: {} };
  const requested = requestedVersion(headers);
  if (requested.ok) return { responseHeaders: { [VERSION_HEADER]: requested.version } };
  const refusal = Response.json(requested.error.toBody(), {
    status: requested.error.status,
    headers: { "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'" },
  });
  return { refusal: withSessionsApiHeaders(method, pathname, refusal) };
}
