import { describe, expect, it } from "vitest";
import { webhookEventState } from "./webhook-state";

describe("webhookEventState", () => {
  const processedAt = new Date("2026-01-01T00:00:00Z");

  it("is waiting until the event is processed, whatever its result says", () => {
    expect(webhookEventState({ processedAt: null, result: null })).toBe("waiting");
    expect(webhookEventState({ processedAt: null, result: "rejected" })).toBe("waiting");
  });

  it("tells an acknowledged, a rejected and an applied event apart", () => {
    expect(webhookEventState({ processedAt, result: "acknowledged" })).toBe("acknowledged");
    expect(webhookEventState({ processedAt, result: "rejected" })).toBe("rejected");
    expect(webhookEventState({ processedAt, result: "status_mismatch" })).toBe("applied");
    expect(webhookEventState({ processedAt, result: "superseded" })).toBe("applied");
  });
});
