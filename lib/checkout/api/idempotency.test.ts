/**
 * The Idempotency-Key store: the key's format, what makes two bodies the same, and the claims on
 * PGlite and on PostgreSQL (the several-instances path): replay, another body, in flight, expiry,
 * a claim whose request never finished, the scope (partner, method, path), the purge, and many
 * requests with one key at once on separate connections, of which exactly one runs.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { openDatabase, type Database } from "@/lib/db";
import { idempotencyKeys } from "@/lib/db/schema";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { DEMO_BLUE_PARTNER_ID, DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IN_FLIGHT_LOCK_MS,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
  type IdempotentRequest,
} from "./idempotency";
import { idempotencyKeyOf, isKeptAnswer, requestFingerprint } from "./idempotency-key";

describe("the Idempotency-Key header", () => {
  const keyOf = (value?: string) => idempotencyKeyOf(new Headers(value === undefined ? {} : { "Idempotency-Key": value }));

  it("is optional, and taken as sent when it is 1 to 255 printable ASCII characters", () => {
    expect(keyOf()).toBeUndefined();
    for (const key of ["a", "4f8c1d52-9f0e-4d53-9a55-2c1b0f1e7a10", "order 1234/retry #2", "~".repeat(255)]) expect(keyOf(key)).toBe(key);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["a control character", "key\u0001"],
    ["not ASCII", "clé"],
  ])("is refused when %s: 400 validation_failed naming the header", (_name, value) => {
    const error = (() => {
      try {
        keyOf(value);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody().error).toMatchObject({
      code: "validation_failed",
      fields: [{ field: "Idempotency-Key", message: expect.stringContaining("255 printable ASCII") }],
    });
  });
});

describe("the answers kept for replays", () => {
  it("are all below 500 but 429, except those that say when to try again", () => {
    expect([200, 201, 204, 400, 401, 404, 409, 422].every((status) => isKeptAnswer(status))).toBe(true);
    expect([429, 500, 502, 503].some((status) => isKeptAnswer(status))).toBe(false);
    // A customer's data still in use: retried with the same key after Retry-After, the erasure runs again.
    expect(isKeptAnswer(409, new Headers({ "Retry-After": "600" }))).toBe(false);
    expect(isKeptAnswer(409, new Headers({ "Content-Type": "application/json" }))).toBe(true);
  });
});

describe("the fingerprint of a body", () => {
  it("is the same for the same JSON, in any key order or spacing, and differs for another", () => {
    const a = requestFingerprint('{"booking":{"travellers":2,"packageName":"Lisboa"},"locale":"es"}');
    expect(requestFingerprint('{ "locale": "es", "booking": { "packageName": "Lisboa", "travellers": 2 } }')).toBe(a);
    expect(requestFingerprint('{"booking":{"travellers":3,"packageName":"Lisboa"},"locale":"es"}')).not.toBe(a);
    // Not JSON: the bytes as sent.
    expect(requestFingerprint("{oops")).toBe(requestFingerprint("{oops"));
    expect(requestFingerprint("{oops")).not.toBe(requestFingerprint("{oops "));
  });
});

function suite(name: string, open: () => Promise<Database>) {
  describe(`the keys (${name})`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await open();
      await seedDemoPartner(database.db, {
        secret: "test_partner_secret_0123456789",
        appUrl: "http://127.0.0.1:3999",
        secondPartner: true,
      });
    });
    afterAll(async () => {
      await database?.close();
    });

    let counter = 0;
    const request = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => {
      counter += 1;
      return {
        partnerId: DEMO_PARTNER_ID,
        method: "POST",
        path: "/api/checkout-sessions",
        key: `key-${name}-${counter}`,
        requestHash: requestFingerprint('{"a":1}'),
        ...overrides,
      };
    };
    const t0 = new Date("2026-11-28T10:00:00Z");
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const answer = { status: 201, contentType: "application/json", body: '{"id":"cs_1"}' };

    it("claims a new key once: the same request again is in flight until answered, then replayed", async () => {
      const first = request();
      expect(await claimIdempotencyKey(database.db, first, t0)).toEqual({ kind: "claimed" });
      expect(await claimIdempotencyKey(database.db, first, later(1_000))).toEqual({ kind: "in_flight" });
      await completeIdempotencyKey(database.db, first, answer);
      expect(await claimIdempotencyKey(database.db, first, later(2_000))).toEqual({ kind: "replay", answer });
      // Just before its 24 hours are up: still the same answer.
      expect(await claimIdempotencyKey(database.db, first, later(IDEMPOTENCY_KEY_TTL_MS - 1))).toEqual({ kind: "replay", answer });
    });

    it("refuses the key with another body, in flight or answered", async () => {
      const first = request();
      const other = { ...first, requestHash: requestFingerprint('{"a":2}') };
      await claimIdempotencyKey(database.db, first, t0);
      expect(await claimIdempotencyKey(database.db, other, later(1))).toEqual({ kind: "reused" });
      await completeIdempotencyKey(database.db, first, answer);
      expect(await claimIdempotencyKey(database.db, other, later(2))).toEqual({ kind: "reused" });
    });

    it("forgets a key after 24 hours: claimed afresh, with any body, and purged", async () => {
      const first = request();
      await claimIdempotencyKey(database.db, first, t0);
      await completeIdempotencyKey(database.db, first, answer);
      const other = { ...first, requestHash: requestFingerprint('{"a":2}') };
      expect(await claimIdempotencyKey(database.db, other, later(IDEMPOTENCY_KEY_TTL_MS))).toEqual({ kind: "claimed" });
      expect(await claimIdempotencyKey(database.db, other, later(IDEMPOTENCY_KEY_TTL_MS + 1))).toEqual({ kind: "in_flight" });

      const purged = request();
      await claimIdempotencyKey(database.db, purged, t0);
      await completeIdempotencyKey(database.db, purged, answer);
      const rows = async () =>
        (await database.db.select({ n: count() }).from(idempotencyKeys).where(eq(idempotencyKeys.key, purged.key)))[0]!.n;
      expect(await purgeExpiredIdempotencyKeys(database.db, later(IDEMPOTENCY_KEY_TTL_MS - 1))).toBe(0);
      expect(await rows()).toBe(1);
      expect(await purgeExpiredIdempotencyKeys(database.db, later(IDEMPOTENCY_KEY_TTL_MS))).toBeGreaterThanOrEqual(1);
      expect(await rows()).toBe(0);
    });

    it("lets a key go with no answer kept (a 5xx, a 429): the same request runs again", async () => {
      const first = request();
      await claimIdempotencyKey(database.db, first, t0);
      await releaseIdempotencyKey(database.db, first);
      expect(await claimIdempotencyKey(database.db, first, later(1))).toEqual({ kind: "claimed" });
    });

    it("takes over a claim whose request never finished once its lock has run out", async () => {
      const first = request();
      await claimIdempotencyKey(database.db, first, t0);
      expect(await claimIdempotencyKey(database.db, first, later(IN_FLIGHT_LOCK_MS - 1))).toEqual({ kind: "in_flight" });
      expect(await claimIdempotencyKey(database.db, first, later(IN_FLIGHT_LOCK_MS))).toEqual({ kind: "claimed" });
      expect(await claimIdempotencyKey(database.db, first, later(IN_FLIGHT_LOCK_MS + 1))).toEqual({ kind: "in_flight" });
    });

    it("keeps a key per partner, method and path: the same key elsewhere is another key", async () => {
      const first = request();
      await claimIdempotencyKey(database.db, first, t0);
      await completeIdempotencyKey(database.db, first, answer);
      const otherBody = requestFingerprint('{"a":2}');
      for (const elsewhere of [
        { partnerId: DEMO_BLUE_PARTNER_ID },
        { path: "/api/checkout-sessions/cs_3q8Zb1nX2mAbCdEfGh/cancel" },
        { method: "PUT" },
      ]) {
        expect(await claimIdempotencyKey(database.db, { ...first, ...elsewhere, requestHash: otherBody }, later(1))).toEqual({
          kind: "claimed",
        });
      }
      expect(await claimIdempotencyKey(database.db, first, later(2))).toEqual({ kind: "replay", answer });
    });
  });
}

suite("PGlite", () => openDatabase({ dataDir: "memory://" }));

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL", () => {
  const throwaway = throwawayDatabase("idempotency_keys");
  suite("PostgreSQL", () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" }));

  it("gives a key to exactly one of many requests sent at once, each on its own connection", async () => {
    // Several databases opened on one server: each its own pool, as several instances have.
    const instances = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" })));
    try {
      await seedDemoPartner(instances[0]!.db, { secret: "test_partner_secret_0123456789", appUrl: "http://127.0.0.1:3999" });
      for (let round = 0; round < 5; round += 1) {
        const keyed: IdempotentRequest = {
          partnerId: DEMO_PARTNER_ID,
          method: "POST",
          path: "/api/checkout-sessions",
          key: `race-${round}`,
          requestHash: requestFingerprint("{}"),
        };
        const claims = await Promise.all(
          Array.from({ length: 16 }, (_, i) => claimIdempotencyKey(instances[i % instances.length]!.db, keyed, new Date())),
        );
        expect(claims.filter((claim) => claim.kind === "claimed")).toHaveLength(1);
        expect(claims.filter((claim) => claim.kind === "in_flight")).toHaveLength(15);
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});
