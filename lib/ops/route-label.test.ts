import { describe, expect, it } from "vitest";
import { routeLabel } from "./route-label";

describe("routeLabel", () => {
  it("keeps the app's fixed paths", () => {
    expect(routeLabel("/api/health")).toBe("/api/health");
    expect(routeLabel("/admin/operations?status=CONFIRMED")).toBe("/admin/operations");
    expect(routeLabel("/api/events?after=1042&limit=100")).toBe("/api/events");
    expect(routeLabel("/")).toBe("/");
  });

  it("reduces ids and tokens to the route's template", () => {
    expect(routeLabel("/checkout/cs_0123456789abcdef")).toBe("/checkout/[sessionId]");
    expect(routeLabel("/checkout/cs_0123456789abcdef/return/success?x=1")).toBe("/checkout/[sessionId]/return/success");
    expect(routeLabel("/checkout/cs_0123456789abcdef/return/error")).toBe("/checkout/[sessionId]/return/error");
    // No route: a made-up return is not labelled as one.
    expect(routeLabel("/checkout/cs_0123456789abcdef/return/ok?x=1")).toBe("/checkout/[sessionId]/*");
    expect(routeLabel("/checkout/cs_0123456789abcdef/offers")).toBe("/checkout/[sessionId]/offers");
    expect(routeLabel("/api/webhooks/financing/secret_token_value_123456")).toBe("/api/webhooks/financing/[token]");
    expect(routeLabel("/admin/operations/op_123")).toBe("/admin/operations/[id]");
    expect(routeLabel("/api/checkout-sessions/cs_0123456789abcdef")).toBe("/api/checkout-sessions/[id]");
    expect(routeLabel("/api/checkout-sessions/cs_0123456789abcdef/cancel")).toBe("/api/checkout-sessions/[id]/cancel");
    expect(routeLabel("/api/checkout-sessions/cs_0123456789abcdef/refund")).toBe("/api/checkout-sessions/[id]/refund");
    expect(routeLabel("/sandbox/v1/operations/op_1/status")).toBe("/sandbox/v1/*");
    expect(routeLabel("/_next/static/chunks/app.js")).toBe("/_next/static");
  });

  it("puts made-up paths under one label, so clients cannot grow the series", () => {
    const labels = new Set(Array.from({ length: 100 }, (_, i) => routeLabel(`/made-up-${i}/x`)));
    expect([...labels]).toEqual(["other"]);
    expect(routeLabel("/api/webhooks/financing/tok/extra")).toBe("other");
    expect(routeLabel("/api/checkout-sessions/cs_0123456789abcdef/made-up")).toBe("other");
  });
});
