import { describe, expect, it } from "vitest";
import { CHECKOUT_PATH } from "@/lib/security/headers/page-headers";
import { isCheckoutSessionId } from "./checkout-session-id";

describe("a checkout session's id", () => {
  it("is cs_ and 10 to 64 URL-safe characters", () => {
    expect(isCheckoutSessionId("cs_abcdefghij")).toBe(true);
    expect(isCheckoutSessionId(`cs_${"a-_9".repeat(16)}`)).toBe(true);
    expect(isCheckoutSessionId("cs_abcdefghi")).toBe(false);
    expect(isCheckoutSessionId(`cs_${"a".repeat(65)}`)).toBe(false);
    expect(isCheckoutSessionId("xs_abcdefghij")).toBe(false);
    expect(isCheckoutSessionId("cs_abcdefghij/offers")).toBe(false);
    expect(isCheckoutSessionId(" cs_abcdefghij")).toBe(false);
  });

  it("is the same in a checkout URL", () => {
    expect(CHECKOUT_PATH.exec(`/checkout/cs_${"a".repeat(64)}/status`)?.[1]).toBe(`cs_${"a".repeat(64)}`);
    expect(CHECKOUT_PATH.exec(`/checkout/cs_${"a".repeat(65)}`)).toBeNull();
    expect(CHECKOUT_PATH.exec("/checkout/cs_abcdefghi")).toBeNull();
  });
});
