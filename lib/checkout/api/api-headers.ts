import { getEnv } from "@/lib/env";

/**
 * The headers of every answer of the checkout sessions API (its document states them), whoever
 * gives it: the routes, or the proxy refusing a request before any route (a body over the limit,
 * a path that does not decode). Never cached; readable by no other site's page, only this
 * deployment's own (the API is for backends, whose secret no browser should hold: the header says
 * so rather than leaving it unsaid); and the per-minute budget of requests of its kind
 * (`X-RateLimit-Limit`: sessions opened, reads of sessions and events, or actions on sessions,
 * with one partner's secrets).
 */
export type SessionsApiKind = "create" | "read" | "action";

export function sessionsApiHeaders(kind: SessionsApiKind): Record<string, string> {
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
  };
}

/**
 * Which operation of the API a request is: opening a session (`POST /api/checkout-sessions`), a
 * read (the list, one session, a refund's breakdown, the event feed `/api/events`), or an action on
 * a session (its cancel, its refund). Undefined for any other path. A method the address does not
 * take counts as the address's main one: its 405 carries the same headers.
 */
export function sessionsApiKind(method: string, pathname: string): SessionsApiKind | undefined {
  const reading = method === "GET" || method === "HEAD";
  if (pathname === "/api/checkout-sessions") return reading ? "read" : "create";
  if (pathname === "/api/events") return "read";
  const path = /^\/api\/checkout-sessions\/[^/]+(\/cancel|\/refund)?$/.exec(pathname);
  if (!path) return undefined;
  if (path[1] === "/cancel") return "action";
  if (path[1] === "/refund") return reading ? "read" : "action";
  return "read";
}

/** A refusal given before the route, with the API's headers when it is an answer of the API. */
export function withSessionsApiHeaders(method: string, pathname: string, response: Response): Response {
  const kind = sessionsApiKind(method, pathname);
  if (kind) for (const [name, value] of Object.entries(sessionsApiHeaders(kind))) response.headers.set(name, value);
  return response;
}
