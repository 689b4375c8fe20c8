import { describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { sessionsApiKind, withSessionsApiHeaders } from "./api-headers";

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
