import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { takeTokens } from "./shared-token-bucket";

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
