import { getEnv } from "@/lib/env";

/**
 * The headers of every answer of the checkout sessions API (its document states them), whoever
 * gives it: the routes, or the proxy refusing a request before any route (a body over the limit,
 * a path that does not decode). Never cached; readable by no other site's page, only this
 * deployment's own (the API is for backends, whose secret no browser should hold: the header says
 * so rather than leaving it unsaid); and the per-minute budget of requests of its kind
 * (`X-RateLimit-Limit`: sessions opened, or reads of sessions and events, with one secret).
 */
export function sessionsApiHeaders(kind: "create" | "read"): Record<string, string> {
  const env = getEnv();
  const budget = env.sessionsApiBudget;
  return {
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": new URL(env.APP_URL).origin,
    "X-RateLimit-Limit": String(kind === "create" ? budget.createPerPartnerPerMinute : budget.readsPerPartnerPerMinute),
  };
}

/**
 * Which operation of the API a path is: `/api/checkout-sessions` (create), or a read: one session,
 * or the event feed (`/api/events`).
 */
export function sessionsApiKind(pathname: string): "create" | "read" | undefined {
  if (pathname === "/api/checkout-sessions") return "create";
  if (pathname === "/api/events") return "read";
  return /^\/api\/checkout-sessions\/[^/]+$/.test(pathname) ? "read" : undefined;
}

/** A refusal given before the route, with the API's headers when it is an answer of the API. */
export function withSessionsApiHeaders(pathname: string, response: Response): Response {
  const kind = sessionsApiKind(pathname);
  if (kind) for (const [name, value] of Object.entries(sessionsApiHeaders(kind))) response.headers.set(name, value);
  return response;
}
