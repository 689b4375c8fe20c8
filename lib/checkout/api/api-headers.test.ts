/**
 * What the proxy does for the checkout sessions API before any route: the version on every
 * answer under the API's addresses (its refusals included), and a version it does not have
 * refused there, in the API's format.
 */
import { describe, expect, it } from "vitest";
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
    expect(checkoutApiProxyStep("/api/checkout-sessions", new Headers())).toEqual({
      responseHeaders: { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION },
    });
    expect(checkoutApiProxyStep("/api/events", new Headers({ "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION }))).toEqual({
      responseHeaders: { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION },
    });
    // Not the API: nothing to add, nothing refused.
    expect(checkoutApiProxyStep("/api/health", new Headers({ "Checkout-Api-Version": "1999-01-01" }))).toEqual({ responseHeaders: {} });
  });

  it("refuses a version the API does not have: 400 unsupported_api_version naming the header, with the API's headers", async () => {
    const step = checkoutApiProxyStep("/api/checkout-sessions", new Headers({ "Checkout-Api-Version": "2019-01-01" }));
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
    expect(withSessionsApiHeaders("/api/checkout-sessions/cs_x/cancel", refused()).headers.get("Checkout-Api-Version")).toBe(
      CURRENT_CHECKOUT_API_VERSION,
    );
    expect(withSessionsApiHeaders("/api/checkout-sessions", refused()).headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    expect(withSessionsApiHeaders("/sandbox/v1/health", refused()).headers.get("Checkout-Api-Version")).toBeNull();
  });
});

describe("sessionsApiKind", () => {
  it("knows every path of the API, so a refusal before the route still carries its headers", () => {
    expect(sessionsApiKind("/api/checkout-sessions")).toBe("create");
    expect(sessionsApiKind("/api/checkout-sessions/cs_abc")).toBe("read");
    expect(sessionsApiKind("/api/events")).toBe("read");
    for (const other of ["/api/health", "/api/events/x", "/api/eventsx", "/api/checkout-sessions/a/b", "/checkout/cs_abc"]) {
      expect(sessionsApiKind(other), other).toBeUndefined();
    }
  });
});
