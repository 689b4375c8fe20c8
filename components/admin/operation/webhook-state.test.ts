import { describe, expect, it } from "vitest";
import { webhookEventState } from "./webhook-state";

describe("webhookEventState", () => {
  const processedAt = new Date("2026-01-01T00:00:00Z");

  it("is waiting until the event is processed, whatever its outcome says", () => {
    expect(webhookEventState({ processedAt: null, outcome: null })).toBe("waiting");
    expect(webhookEventState({ processedAt: null, outcome: "rejected: unknown operation" })).toBe("waiting");
  });

  it("tells an acknowledged, a rejected and an applied event apart", () => {
    expect(webhookEventState({ processedAt, outcome: "applied and acknowledged" })).toBe("acknowledged");
    expect(webhookEventState({ processedAt, outcome: "rejected: unknown operation" })).toBe("rejected");
    expect(webhookEventState({ processedAt, outcome: "applied" })).toBe("applied");
    expect(webhookEventState({ processedAt, outcome: null })).toBe("applied");
  });
});
