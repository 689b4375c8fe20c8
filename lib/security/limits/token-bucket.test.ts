import { describe, expect, it } from "vitest";
import { createTokenBuckets, takeAll } from "./token-bucket";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("token buckets", () => {
  it("allow a burst up to the capacity, then refuse with the wait until the next token", () => {
    const time = clock();
    const buckets = createTokenBuckets({ capacity: 3, perMinute: 6, now: time.now });
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")].every((r) => r.ok)).toBe(true);
    expect(buckets.take("a")).toEqual({ ok: false, retryAfterMs: 10_000 });
    time.advance(4_000);
    expect(buckets.take("a")).toEqual({ ok: false, retryAfterMs: 6_000 });
    time.advance(6_000);
    expect(buckets.take("a").ok).toBe(true);
    expect(buckets.take("a").ok).toBe(false);
  });

  it("refill continuously, never beyond the capacity", () => {
    const time = clock();
    const buckets = createTokenBuckets({ capacity: 2, perMinute: 60, now: time.now });
    buckets.take("a");
    buckets.take("a");
    time.advance(3_600_000);
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")].map((r) => r.ok)).toEqual([true, true, false]);
  });

  it("keep one budget per key: another key is not spent", () => {
    const time = clock();
    const buckets = createTokenBuckets({ capacity: 1, perMinute: 1, now: time.now });
    expect(buckets.take("203.0.113.1").ok).toBe(true);
    expect(buckets.take("203.0.113.1").ok).toBe(false);
    expect(buckets.take("203.0.113.2").ok).toBe(true);
  });

  it("takeAll spends from every bucket or from none", () => {
    const time = clock();
    const partner = createTokenBuckets({ capacity: 5, perMinute: 5, now: time.now });
    const ip = createTokenBuckets({ capacity: 1, perMinute: 1, now: time.now });
    expect(
      takeAll([
        [partner, "p"],
        [ip, "1"],
      ]).ok,
    ).toBe(true);
    // The IP is out: the partner's budget is not touched by the refusals.
    for (let i = 0; i < 10; i++)
      expect(
        takeAll([
          [partner, "p"],
          [ip, "1"],
        ]),
      ).toEqual({ ok: false, retryAfterMs: 60_000 });
    for (let i = 0; i < 4; i++)
      expect(
        takeAll([
          [partner, "p"],
          [ip, `other-${i}`],
        ]).ok,
      ).toBe(true);
    expect(
      takeAll([
        [partner, "p"],
        [ip, "fresh"],
      ]),
    ).toEqual({ ok: false, retryAfterMs: 12_000 });
  });
});
