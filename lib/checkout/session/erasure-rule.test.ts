import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { ERASURE_RETRY_DELAY_MS, erasureDecision, secondsUntil } from "./erasure-rule";

const NOW = new Date("2026-12-01T12:00:00.000Z");
const LATER = new Date("2026-12-01T18:00:00.000Z");
const EARLIER = new Date("2026-12-01T06:00:00.000Z");

function session(overrides: Partial<Parameters<typeof erasureDecision>[0]> = {}): Parameters<typeof erasureDecision>[0] {
  return { operationStatus: null, expiresAt: LATER, financingStatus: null, notEligibleAt: null, cancelledAt: null, ...overrides };
}

describe("whether a session's customer data may be erased now", () => {
  it("refuses while the customer may still send their data or choose a plan, until the session's expiry", () => {
    expect(erasureDecision(session(), NOW)).toEqual({ allowed: false, state: "open", retryAt: LATER });
    expect(erasureDecision(session({ operationStatus: "GENERATED" }), NOW)).toEqual({ allowed: false, state: "choosing", retryAt: LATER });
    expect(erasureDecision(session({ operationStatus: "PENDING" }), NOW)).toMatchObject({ allowed: false, state: "choosing" });
  });

  it("refuses while the customer is at the provider, for a stated delay", () => {
    const retryAt = new Date(NOW.getTime() + ERASURE_RETRY_DELAY_MS);
    expect(erasureDecision(session({ operationStatus: "CLIENT_REQUESTED" }), NOW)).toEqual({ allowed: false, state: "pending", retryAt });
    expect(erasureDecision(session({ operationStatus: "PENDING_RESPONSE" }), NOW)).toMatchObject({ allowed: false, retryAt });
    expect(erasureDecision(session({ operationStatus: "GENERATED", financingStatus: "REQUESTED" }), NOW)).toMatchObject({
      allowed: false,
      state: "pending",
      retryAt,
    });
    // An operation still open after the session's expiry: asked again after the delay, not at a past time.
    expect(erasureDecision(session({ operationStatus: "GENERATED", expiresAt: EARLIER }), NOW)).toMatchObject({ allowed: false, retryAt });
  });

  it("allows every final state", () => {
    for (const operationStatus of ["FAVORABLE", "CONFIRMED", "FINISHED", "REFUSED", "ERROR", "CANCELLED", "EXPIRED", "REFUNDED"] as const) {
      expect(erasureDecision(session({ operationStatus }), NOW).allowed).toBe(true);
    }
    expect(erasureDecision(session({ expiresAt: EARLIER }), NOW)).toEqual({ allowed: true, state: "expired" });
    expect(erasureDecision(session({ cancelledAt: EARLIER }), NOW)).toEqual({ allowed: true, state: "cancelled" });
    expect(erasureDecision(session({ operationStatus: "GENERATED", notEligibleAt: EARLIER }), NOW)).toEqual({
      allowed: true,
      state: "not_eligible",
    });
  });

  it("says the wait in whole seconds, at least one", () => {
    expect(secondsUntil(LATER, NOW)).toBe(6 * 3600);
    expect(secondsUntil(new Date(NOW.getTime() + 1500), NOW)).toBe(2);
    expect(secondsUntil(EARLIER, NOW)).toBe(1);
  });

  it("refuses with a 409 of its own", () => {
    expect(new AppError("customer_data_in_use", "in use").status).toBe(409);
  });
});
