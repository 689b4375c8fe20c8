import { describe, expect, it } from "vitest";
import { sessionsApiKind } from "./api-headers";

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
