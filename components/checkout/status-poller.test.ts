import { describe, expect, it } from "vitest";
import { backoffFrom, nextPollIn, PollBackoff } from "./status-poller";

describe("the status page's poll after a 429", () => {
  it("waits what Retry-After says before the next poll", () => {
    expect(nextPollIn(undefined, new PollBackoff(backoffFrom("12")))).toBe(12_000);
    expect(
      nextPollIn({ final: false }, new PollBackoff(backoffFrom("Fri, 27 Nov 2026 23:00:20 GMT", Date.parse("2026-11-27T23:00:00Z")))),
    ).toBe(20_000);
  });

  it("never polls faster than its interval, nor waits more than a minute, nor stops on a broken header", () => {
    expect(backoffFrom("0")).toBe(2_500);
    expect(backoffFrom("86400")).toBe(60_000);
    expect(backoffFrom("soon")).toBe(10_000);
    expect(backoffFrom(null)).toBe(10_000);
  });

  it("polls at the usual interval otherwise, and not at all once the outcome is final", () => {
    expect(nextPollIn({ final: false }, null)).toBe(2_500);
    expect(nextPollIn({ final: false }, new Error("status 502"))).toBe(2_500);
    expect(nextPollIn({ final: true }, null)).toBe(false);
  });
});
