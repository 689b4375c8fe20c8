import fc from "fast-check";
import { forgedCursor, forgedEventCursor } from "./cursors";
import { hostileJsonBody, json, request, type FuzzRequest, type FuzzTarget, type SurfaceName } from "./request";
import { validSessionBody, validWebhookEvent } from "./valid-bodies";
import { hostileQuery, hostileSegment, notJson } from "./values";

/*
 * The app's surfaces over HTTP, its server actions apart (lib/testing/fuzz/server-actions.ts): the
 * partner API, the financing webhook, the badge, the checkout's pages, the embed and the back office.
 */

/** Methods no route serves: the HTTP parser's own (TRACE, CONNECT, WebDAV's) and made-up ones it does not know. */
export const UNSERVED_METHODS = ["TRACE", "PROPFIND", "CONNECT", "BREW", "FOO", "M-SEARCH"] as const;

type AppSurface = Exclude<SurfaceName, "server-actions" | "sandbox-api" | "sandbox-pages" | "sandbox-control">;

export function appSurfaces(target: FuzzTarget): Record<AppSurface, fc.Arbitrary<FuzzRequest>> {
  const auth = { Authorization: `Bearer ${target.partnerSecret}` };
  const segment = hostileSegment;

  const checkoutSessions = fc.oneof(
    hostileJsonBody(validSessionBody, 64 * 1024).map((body) =>
      request("checkout-sessions", "POST", "/api/checkout-sessions", { ...auth, ...json }, body),
    ),
    fc
      .tuple(fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"), notJson)
      .map(([type, body]) => request("checkout-sessions", "POST", "/api/checkout-sessions", { ...auth, "Content-Type": type }, body)),
    segment.map((id) => request("checkout-sessions", "GET", `/api/checkout-sessions/${id}`, auth)),
    hostileQuery(["after", "limit"]).map((query) => request("checkout-sessions", "GET", `/api/events${query}`, auth)),
    // The list's cursors, forged (an impossible date among them), alone or with filters; the feed's `after` too (its own forgeries).
    fc
      .tuple(forgedCursor, fc.option(hostileQuery(["limit", "state", "createdFrom", "bookingReference"])))
      .map(([cursor, query]) =>
        request(
          "checkout-sessions",
          "GET",
          `/api/checkout-sessions${query ?? "?"}${query ? "&" : ""}cursor=${encodeURIComponent(cursor)}`,
          auth,
        ),
      ),
    forgedEventCursor.map((cursor) => request("checkout-sessions", "GET", `/api/events?after=${encodeURIComponent(cursor)}`, auth)),
    fc
      .tuple(fc.constantFrom("PUT", "DELETE", "PATCH"), segment)
      .map(([method, id]) => request("checkout-sessions", method, `/api/checkout-sessions/${id}`, auth, "{}")),
  );

  const webhook = fc.oneof(
    hostileJsonBody(validWebhookEvent, 4 * 1024).map((body) =>
      request("webhook", "POST", `/api/webhooks/financing/${target.webhookToken}`, json, body),
    ),
    segment.map((token) => request("webhook", "POST", `/api/webhooks/financing/${token}`, json, JSON.stringify(validWebhookEvent))),
  );

  const badge = hostileQuery(["partner", "amount", "country", "lang"]).map((query) => request("badge", "GET", `/api/badge${query}`));

  const checkoutPages = fc.oneof(
    fc
      .tuple(
        segment,
        fc.constantFrom("", "/offers", "/status", "/status/data", "/return/success", "/return/error", "/return/x"),
        fc.option(hostileQuery(["notice", "embed", "lang", "operationId", "status"])),
      )
      .map(([id, page, query]) => request("checkout-pages", "GET", `/checkout/${id}${page}${query ?? ""}`)),
    fc
      // Not the return routes: on a real session they ask the API for news, by design.
      .tuple(
        fc.constantFrom("/offers", "/status", "/status/data", ""),
        hostileQuery(["notice", "embed", "lang", "handoff", "operationId", "status", "externalId"]),
      )
      .map(([page, query]) => request("checkout-pages", "GET", `/checkout/${target.sessionId}${page}${query}`)),
    fc
      .tuple(fc.constantFrom("", "/about", "/favicon.ico"), segment)
      .map(([page, tail]) => request("checkout-pages", "GET", `${page}/${tail}`)),
    // A method no route serves, on any kind of URL (the app's, its API's, the sandbox's, a static file).
    fc
      .tuple(
        fc.constantFrom(...UNSERVED_METHODS),
        fc.constantFrom(
          "/",
          `/checkout/${target.sessionId}`,
          `/checkout/${target.sessionId}/status/data`,
          "/admin",
          "/api/checkout-sessions",
          "/api/health",
          "/sandbox/v1/health",
          "/embed.js",
        ),
      )
      .map(([method, path]) => request("checkout-pages", method, path)),
  );

  const embed = fc.oneof(
    segment.map((id) => request("embed", "GET", `/embed/${id}/continue`)),
    hostileQuery(["partner", "v", "preview", "brand", "ink", "font", "radius", "logoUrl"]).map((query) =>
      request("embed", "GET", `/embed/theme.css${query}`),
    ),
  );

  const admin = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("/admin", "/admin/operations", "/admin/simulator", "/admin/theme", "/admin/login", "/admin/operations/export"),
        hostileQuery(["page", "size", "status", "from", "to", "next", "amount", "preview", "brand", "notice"]),
      )
      .map(([path, query]) => request("admin", "GET", `${path}${query}`)),
    fc.tuple(segment, fc.constantFrom("", "/refund")).map(([id, tail]) => request("admin", "GET", `/admin/operations/${id}${tail}`)),
  );

  return {
    "checkout-sessions": checkoutSessions,
    webhook,
    badge,
    "checkout-pages": checkoutPages,
    embed,
    admin,
  };
}
