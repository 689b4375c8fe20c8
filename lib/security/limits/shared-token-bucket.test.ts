import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { tokenBuckets } from "@/lib/db/schema";
import { BUCKET_FULL_AFTER_MS, purgeFullTokenBuckets, spendTokens, takeTokens } from "./shared-token-bucket";

/** Buckets in the database: what one instance takes, another sees; several buckets at once, all or none. */

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterAll(async () => {
  await database?.close();
});

const rule = { capacity: 2, perHour: 2 };

describe("takeTokens", () => {
  it("gives a bucket's capacity, also to concurrent takers, then refills with time", async () => {
    const now = new Date("2026-01-01T10:00:00Z");
    const taken = await Promise.all(Array.from({ length: 6 }, () => takeTokens(database.db, [{ key: "a", rule }], now)));
    expect(taken.filter(Boolean)).toHaveLength(2);
    expect(await takeTokens(database.db, [{ key: "a", rule }], new Date("2026-01-01T10:20:00Z"))).toBe(false);
    expect(await takeTokens(database.db, [{ key: "a", rule }], new Date("2026-01-01T10:30:00Z"))).toBe(true);
  });

  it("takes from every bucket or from none: a full partner bucket refuses, and the link's token is not spent", async () => {
    const now = new Date("2026-01-01T10:00:00Z");
    const partner = { key: "partner", rule: { capacity: 1, perHour: 1 } };
    expect(await takeTokens(database.db, [{ key: "link-1", rule }, partner], now)).toBe(true);
    expect(await takeTokens(database.db, [{ key: "link-2", rule }, partner], now)).toBe(false);
    // link-2 still has its two tokens.
    expect(await takeTokens(database.db, [{ key: "link-2", rule }], now)).toBe(true);
    expect(await takeTokens(database.db, [{ key: "link-2", rule }], now)).toBe(true);
    expect(await takeTokens(database.db, [{ key: "link-2", rule }], now)).toBe(false);
  });
});

describe("purgeFullTokenBuckets", () => {
  it("deletes only the buckets untouched for a day (full again, as a missing row is), and a purged one starts full", async () => {
    const t0 = new Date("2026-02-01T10:00:00Z");
    const slow = { capacity: 3, perHour: 1 };
    for (let i = 0; i < 3; i++) expect(await takeTokens(database.db, [{ key: "purge:old", rule: slow }], t0)).toBe(true);
    const later = new Date(t0.getTime() + BUCKET_FULL_AFTER_MS - 60_000);
    expect(await takeTokens(database.db, [{ key: "purge:recent", rule: slow }], later)).toBe(true);
    const keys = async () =>
      (await database.db.select({ key: tokenBuckets.key }).from(tokenBuckets))
        .map((row) => row.key)
        .filter((key) => key.startsWith("purge:"));

    // Not a day yet: nothing goes, the old bucket is still empty.
    await purgeFullTokenBuckets(database.db, new Date(t0.getTime() + BUCKET_FULL_AFTER_MS - 1));
    expect((await keys()).sort()).toEqual(["purge:old", "purge:recent"]);

    const now = new Date(t0.getTime() + BUCKET_FULL_AFTER_MS + 1);
    expect(await purgeFullTokenBuckets(database.db, now)).toBeGreaterThanOrEqual(1);
    expect(await keys()).toEqual(["purge:recent"]);
    // The purged bucket was full anyway (3 hours refill it): its whole capacity, then no more.
    for (let i = 0; i < 3; i++) expect(await takeTokens(database.db, [{ key: "purge:old", rule: slow }], now)).toBe(true);
    expect(await takeTokens(database.db, [{ key: "purge:old", rule: slow }], now)).toBe(false);
  });

  it("refuses a rule that takes longer than a day to refill, so a purge never gives a budget back early", async () => {
    const tooSlow = { capacity: 30, perHour: 1 };
    await expect(takeTokens(database.db, [{ key: "purge:too-slow", rule: tooSlow }])).rejects.toThrow(/refill within 24 hours/);
    await expect(spendTokens(database.db, [{ buckets: { prefix: "purge", rule: tooSlow }, key: "too-slow" }])).rejects.toThrow(
      /refill within 24 hours/,
    );
  });
});
