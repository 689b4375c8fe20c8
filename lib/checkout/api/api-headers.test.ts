/**
 * What the proxy does for the checkout sessions API before any route: the version on every
 * answer under the API's addresses (its refusals included), and a version it does not have
 * refused there, in the API's format.
 */
import { describe, expect, it } from "vitest";
import { getEnv } from "@/lib/config/env";
import { checkoutApiProxyStep, isCheckoutApiPath, sessionsApiKind, withSessionsApiHeaders } from "./api-headers";
import { CURRENT_CHECKOUT_API_VERSION } from "./versions";

describe("the checkout sessions API's addresses", () => {
  it("are the sessions and the events, under /api, and nothing else", () => {
    for (const path of [
      "/api/checkout-sessions",
      "/api/checkout-sessions/cs_3q8Zb1nX2mAbCdEfGh",
      "/api/checkout-sessions/cs_3q8Zb1nX2mAbCdEfGh/refund",
      "/api/events",
    ]) {
      expect(isCheckoutApiPath(path), path).toBe(true);
    }
    for (const path of ["/api/checkout-sessionsx", "/api/health", "/api/openapi.json", "/checkout/cs_x", "/api/eventsource"]) {
      expect(isCheckoutApiPath(path), path).toBe(false);
    }
  });
});

describe("the proxy's step for the API", () => {
  it("passes a request on, stating the version its answer is in", () => {
    expect(checkoutApiProxyStep("POST", "/api/checkout-sessions", new Headers())).toEqual({
      responseHeaders: { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION },
    });
    expect(checkoutApiProxyStep("GET", "/api/events", new Headers({ "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION }))).toEqual({
      responseHeaders: { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION },
    });
    // Not the API: nothing to add, nothing refused.
    expect(checkoutApiProxyStep("GET", "/api/health", new Headers({ "Checkout-Api-Version": "1999-01-01" }))).toEqual({
      responseHeaders: {},
    });
  });

  it("refuses a version the API does not have: 400 unsupported_api_version naming the header, with the API's headers", async () => {
    const step = checkoutApiProxyStep("POST", "/api/checkout-sessions", new Headers({ "Checkout-Api-Version": "2019-01-01" }));
    const refusal = step.refusal!;
    expect(refusal.status).toBe(400);
    expect(await refusal.json()).toEqual({
      error: {
        code: "unsupported_api_version",
        message: expect.stringContaining("Checkout-Api-Version"),
        fields: [{ field: "Checkout-Api-Version", message: `must be one of: ${CURRENT_CHECKOUT_API_VERSION}` }],
      },
    });
    expect(Object.fromEntries(refusal.headers)).toMatchObject({
      "checkout-api-version": CURRENT_CHECKOUT_API_VERSION,
      "cache-control": "no-store",
      "x-ratelimit-limit": expect.stringMatching(/^\d+$/),
    });
  });

  it("puts the version on the proxy's other refusals under the API, wherever the operation is unknown to it", () => {
    const refused = () => Response.json({ error: { code: "validation_failed", message: "m" } }, { status: 400 });
    expect(withSessionsApiHeaders("POST", "/api/checkout-sessions/cs_x/cancel", refused()).headers.get("Checkout-Api-Version")).toBe(
      CURRENT_CHECKOUT_API_VERSION,
    );
    expect(withSessionsApiHeaders("POST", "/api/checkout-sessions", refused()).headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    expect(withSessionsApiHeaders("GET", "/sandbox/v1/health", refused()).headers.get("Checkout-Api-Version")).toBeNull();
  });
});

describe("the checkout sessions API's headers on a refusal before any route", () => {
  it("know every address of the API, and which budget each request counts against", () => {
    const id = "cs_0123456789abcdef";
    expect(
      [
        ["POST", "/api/checkout-sessions"],
        ["GET", "/api/checkout-sessions"],
        ["HEAD", "/api/checkout-sessions"],
        ["DELETE", "/api/checkout-sessions"],
        ["GET", `/api/checkout-sessions/${id}`],
        ["POST", `/api/checkout-sessions/${id}`],
        ["POST", `/api/checkout-sessions/${id}/cancel`],
        ["GET", `/api/checkout-sessions/${id}/cancel`],
        ["POST", `/api/checkout-sessions/${id}/refund`],
        ["GET", `/api/checkout-sessions/${id}/refund`],
        ["GET", "/api/events"],
      ].map(([method, path]) => sessionsApiKind(method!, path!)),
    ).toEqual(["create", "read", "read", "create", "read", "read", "action", "action", "action", "read", "read"]);
    for (const path of [
      "/api/checkout-sessions/x/state",
      "/api/checkout-sessions/x/refund/more",
      "/api/health",
      "/api/events/x",
      "/api/eventsx",
      "/checkout/cs_x",
    ]) {
      expect(sessionsApiKind("GET", path), path).toBeUndefined();
    }
  });

  it("state the budget of the request's kind", () => {
    const budget = getEnv().sessionsApiBudget;
    const limitOf = (method: string, path: string) =>
      withSessionsApiHeaders(method, path, new Response(null, { status: 413 })).headers.get("X-RateLimit-Limit");
    expect(limitOf("POST", "/api/checkout-sessions")).toBe(String(budget.createPerPartnerPerMinute));
    expect(limitOf("GET", "/api/checkout-sessions")).toBe(String(budget.readsPerPartnerPerMinute));
    expect(limitOf("POST", "/api/checkout-sessions/cs_0123456789abcdef/refund")).toBe(String(budget.actionsPerPartnerPerMinute));
    const refused = withSessionsApiHeaders(
      "POST",
      "/api/checkout-sessions/cs_0123456789abcdef/cancel",
      new Response(null, { status: 413 }),
    );
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    expect(refused.headers.get("Access-Control-Allow-Origin")).toMatch(/^https?:\/\/[^/]+$/);
    expect(withSessionsApiHeaders("GET", "/api/health", new Response(null)).headers.get("X-RateLimit-Limit")).toBeNull();
  });
});
