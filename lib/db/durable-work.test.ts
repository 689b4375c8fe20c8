import { describe, expect, it } from "vitest";
import { retryDelay } from "./durable-work";

describe("the backoff of durable work", () => {
  const schedule = [5_000, 30_000, 120_000] as const;

  it("waits the schedule's delay for each failed attempt, then its last one again and again", () => {
    expect([1, 2, 3, 4, 50].map((attempts) => retryDelay(schedule, attempts))).toEqual([5_000, 30_000, 120_000, 120_000, 120_000]);
  });
});
