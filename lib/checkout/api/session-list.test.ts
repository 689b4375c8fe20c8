/**
 * GET /api/checkout-sessions: the partner's own sessions, newest first, filtered, by pages that
 * neither repeat nor skip a session while new ones are opened; every bad parameter a 400 naming it.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgedCursor } from "@/lib/testing/fuzz/cursors";
import { AppError } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import type { Database } from "@/lib/db";
import { checkoutSessions } from "@/lib/db/schema";
import { DEMO_BLUE_PARTNER_ID, DEMO_BLUE_PARTNER_SECRET, DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import type { CheckoutContext } from "../session/flow";
import { createSession } from "../session/sessions";
import { cancelUnstartedSession } from "../session/session-status";
import type { Partner } from "@/lib/partners/partners";
import { documented } from "../testing/api-document";
import { DEMO_SECRET, sessionInput, storedSession, testContext, testBuckets } from "../testing/context";
import type { CheckoutSessionList } from "./api-schemas";
import { handleListSessions } from "./session-list";
import type { SessionsApiThrottles } from "./sessions-api";

let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
const context = () => Promise.resolve(ctx);
const APP_URL = "http://127.0.0.1:3999";

beforeAll(async () => {
  ({ ctx, database, partner } = await testContext("http://127.0.0.1:9/v1", { appUrl: APP_URL }));
  await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: APP_URL, secondPartner: true });
});
afterAll(async () => {
  await database?.close();
});

function throttles(reads = 100_000): SessionsApiThrottles {
  const buckets = testBuckets;
  return {
    createPerPartner: buckets(100_000),
    createPerIp: buckets(100_000),
    wrongSecretsPerIp: buckets(100_000),
    readsPerPartner: buckets(reads),
    trustedProxyHops: 0,
  };
}

function list(query: string | URLSearchParams, secret = DEMO_SECRET, limits = throttles()): Promise<CheckoutSessionList> {
  const request = new Request(`http://localhost/api/checkout-sessions?${query.toString()}`, {
    headers: { Authorization: `Bearer ${secret}` },
  });
  // Every answer, and every refusal, checked against the API's document as it is given.
  return documented("GET", `/checkout-sessions?${query.toString()}`, handleListSessions(request, limits, context));
}

/** The 400's fields (or the status and code of another refusal). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string; fields: { field: string; message: string }[] }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  const response = errorResponse(error);
  const body = (await response.json()) as { error: { code: string; fields?: { field: string; message: string }[] } };
  return { status: response.status, code: body.error.code, fields: body.error.fields ?? [] };
}

let opened = 0;
/** Opens a session for the demo partner under a reference with `prefix`; answers its id. */
async function open(prefix: string): Promise<string> {
  opened += 1;
  const input = sessionInput({}, APP_URL);
  input.booking.bookingReference = `${prefix}-${opened}`;
  return (await createSession(ctx.db, partner, input)).session.id;
}

/** Every page of `query`, following nextCursor; `between` runs after each page. */
async function walk(query: URLSearchParams, between: () => Promise<void> = async () => {}): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set("cursor", cursor);
    const page = await list(params);
    pages.push(page.data.map((session) => session.id));
    expect(page.hasMore).toBe(page.nextCursor !== null);
    cursor = page.nextCursor;
    await between();
  } while (cursor);
  return pages;
}

describe("the partner's list of sessions", () => {
  it("is its own sessions, newest first, as GET shows each one, 20 to a page unless said", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 22; i += 1) ids.push(await open("LIST-ALL"));
    await ctx.db
      .insert(checkoutSessions)
      .values(storedSession({ id: "cs_list_blue_000000", reference: "LIST-BLUE", partnerId: DEMO_BLUE_PARTNER_ID }));

    const first = await list(new URLSearchParams({ createdFrom: since }));
    expect(first.data).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.data.map((session) => session.id)).toEqual(ids.toReversed().slice(0, 20));
    expect(first.data[0]).toMatchObject({
      id: ids.at(-1),
      state: "open",
      final: false,
      operation: null,
      url: `${APP_URL}/checkout/${ids.at(-1)}`,
    });
    const all = (await walk(new URLSearchParams({ createdFrom: since, limit: "100" }))).flat();
    expect(all).toEqual(ids.toReversed());

    // Another partner's sessions are not in it, and it sees none of these.
    expect(all).not.toContain("cs_list_blue_000000");
    const blue = await list(new URLSearchParams({ limit: "100" }), DEMO_BLUE_PARTNER_SECRET);
    expect(blue.data.map((session) => session.id)).toEqual(["cs_list_blue_000000"]);
  });

  it("walks page by page without repeating or skipping a session while new ones are opened between pages", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const before: string[] = [];
    for (let i = 0; i < 7; i += 1) before.push(await open("LIST-WALK"));
    const openedMeanwhile: string[] = [];
    const pages = await walk(new URLSearchParams({ createdFrom: since, limit: "3" }), async () => {
      openedMeanwhile.push(await open("LIST-WALK"), await open("LIST-WALK"));
    });
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    // Exactly the sessions there when the walk began, once each, newest first: none opened meanwhile.
    expect(pages.flat()).toEqual(before.toReversed());
    // A walk begun now starts with them.
    const again = (await walk(new URLSearchParams({ createdFrom: since, limit: "4" }))).flat();
    expect(again).toEqual([...before, ...openedMeanwhile].toReversed());
  });

  it("pages through sessions opened at the same instant by their ids, to the microsecond", async () => {
    const at = new Date("2026-03-01T10:00:00.123Z");
    const ids = Array.from({ length: 5 }, (_, i) => `cs_list_same_${i}_000000`);
    await ctx.db
      .insert(checkoutSessions)
      .values(ids.map((id, i) => ({ ...storedSession({ id, reference: `LIST-SAME-${i}` }), createdAt: at })));
    // And two a microsecond apart, which a millisecond cursor would not tell from the others.
    await ctx.db.execute(
      `insert into checkout_sessions (id, partner_id, booking_reference, booking, booking_hash, return_url, expires_at, created_at)
       select 'cs_list_micro_' || n || '_00000', '${DEMO_PARTNER_ID}', 'LIST-MICRO-' || n, booking, booking_hash, return_url, expires_at,
              timestamptz '2026-03-01 10:00:00.123000+00' + (n || ' microseconds')::interval
       from checkout_sessions, generate_series(1, 2) n where id = '${ids[0]}'`,
    );
    const window = new URLSearchParams({ createdFrom: "2026-03-01T10:00:00Z", createdTo: "2026-03-01T10:00:01Z", limit: "2" });
    const pages = await walk(window);
    expect(pages.flat()).toEqual(["cs_list_micro_2_00000", "cs_list_micro_1_00000", ...ids.toReversed()]);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
  });

  it("filters by state (one or several), by when sessions were opened and changed, and by booking reference", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const openOne = await open("LIST-STATE");
    const cancelled = await open("LIST-STATE");
    const middle = new Date().toISOString();
    await cancelUnstartedSession(ctx.db, cancelled);
    const expired = "cs_list_expired_0000";
    await ctx.db.insert(checkoutSessions).values({
      ...storedSession({ id: expired, reference: "LIST-STATE-EXPIRED" }),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() - 1000),
    });
    const ids = async (params: Record<string, string>) =>
      (await list(new URLSearchParams({ createdFrom: since, ...params }))).data.map((s) => s.id);

    expect(await ids({ state: "open" })).toEqual([openOne]);
    expect(await ids({ state: "cancelled" })).toEqual([cancelled]);
    expect(await ids({ state: "expired,cancelled" })).toEqual([expired, cancelled]);
    expect(await ids({ state: "confirmed" })).toEqual([]);
    expect(await ids({ createdTo: middle })).toEqual([cancelled, openOne]);
    expect(await ids({ createdFrom: middle })).toEqual([expired]);
    // Changed since `middle`: the cancel changed that one, and the expired one was inserted after.
    expect(await ids({ updatedFrom: middle })).toEqual([expired, cancelled]);
    expect(await ids({ updatedTo: middle })).toEqual([openOne]);
    const reference = (await list(new URLSearchParams({ createdFrom: since, state: "open" }))).data[0]!.bookingReference;
    expect((await list(new URLSearchParams({ bookingReference: reference }))).data.map((s) => s.id)).toEqual([openOne]);
    expect((await list(new URLSearchParams({ bookingReference: "NOBODY-S" }))).data).toEqual([]);
    // An instant with its offset is that instant.
    const offset = new Date(Date.parse(middle) + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    expect(await ids({ createdTo: offset })).toEqual([cancelled, openOne]);
  });

  it("refuses a bad value with a 400 naming the parameter, all of them at once", async () => {
    expect(await refusal(list("limit=101"))).toMatchObject({ status: 400, code: "validation_failed", fields: [{ field: "limit" }] });
    for (const limit of ["0", "-1", "abc", "2.5", "1e2", ""]) {
      expect(
        (await refusal(list(`limit=${limit}`))).fields.map((f) => f.field),
        limit,
      ).toEqual(["limit"]);
    }
    expect((await list("limit=100")).data.length).toBeLessThanOrEqual(100);
    expect((await refusal(list("state=paid"))).fields).toEqual([{ field: "state", message: expect.stringContaining("open, choosing") }]);
    expect((await refusal(list("state=open,"))).fields.map((f) => f.field)).toEqual(["state"]);
    expect((await refusal(list("createdFrom=yesterday&updatedTo=2026-05-01"))).fields.map((f) => f.field)).toEqual([
      "createdFrom",
      "updatedTo",
    ]);
    expect((await refusal(list("createdFrom=2026-05-02T00:00:00Z&createdTo=2026-05-01T00:00:00Z"))).fields).toEqual([
      { field: "createdTo", message: "must be after createdFrom" },
    ]);
    expect((await refusal(list("created_from=2026-05-01T00:00:00Z"))).fields).toEqual([
      { field: "created_from", message: expect.stringContaining("is not a parameter of this list") },
    ]);
    expect((await refusal(list("state=open&state=expired"))).fields).toEqual([{ field: "state", message: "must be given once" }]);
    expect((await refusal(list(`bookingReference=${"x".repeat(65)}`))).fields.map((f) => f.field)).toEqual(["bookingReference"]);
    const all = await refusal(list("limit=500&state=nope&cursor=***"));
    expect(all.fields.map((f) => f.field).sort()).toEqual(["cursor", "limit", "state"]);
  });

  it("refuses a cursor that is not one, or that was made for other filters", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    for (let i = 0; i < 3; i += 1) await open("LIST-CURSOR");
    const { nextCursor } = await list(new URLSearchParams({ createdFrom: since, limit: "1" }));
    expect(nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/));
    // The same filters, another size: fine.
    expect((await list(new URLSearchParams({ createdFrom: since, limit: "2", cursor: nextCursor! }))).data).toHaveLength(2);
    expect((await refusal(list(new URLSearchParams({ createdFrom: since, state: "open", cursor: nextCursor! })))).fields).toEqual([
      { field: "cursor", message: expect.stringContaining("other filters") },
    ]);
    const forged = Buffer.from(JSON.stringify(["2026-01-01", "cs_x", "y"])).toString("base64url");
    for (const cursor of ["abc", forged, Buffer.from("[1,2,3]").toString("base64url")]) {
      expect(
        (await refusal(list(new URLSearchParams({ cursor })))).fields.map((f) => f.field),
        cursor,
      ).toEqual(["cursor"]);
    }
  });

  it("refuses a cursor altered in any way, an impossible date included, or another partner's, with a 400 naming it", async () => {
    const since = new Date(Date.now() - 1).toISOString();
    for (let i = 0; i < 2; i += 1) await open("LIST-SIGNED");
    const { nextCursor } = await list(new URLSearchParams({ createdFrom: since, limit: "1" }));
    const cursor = nextCursor!;
    /** The cursor's readable part, whatever else it carries. */
    const payloadOf = (value: string) => value.split(".")[0]!;
    const payload = JSON.parse(Buffer.from(payloadOf(cursor), "base64url").toString("utf8")) as unknown[];
    const reencoded = (changed: unknown[]) => {
      const encoded = Buffer.from(JSON.stringify(changed)).toString("base64url");
      return cursor.includes(".") ? `${encoded}.${cursor.split(".").slice(1).join(".")}` : encoded;
    };
    const tampered = [
      // The review's 500: a well-shaped but impossible instant.
      reencoded(["2026-13-45T10:00:00.000000Z", ...payload.slice(1)]),
      // A possible one, but not the one given: a walk elsewhere in the list.
      reencoded(["2020-01-01T00:00:00.000000Z", ...payload.slice(1)]),
      reencoded([payload[0], "cs_aaaaaaaaaaaaaaaaaaaaaaaa", ...payload.slice(2)]),
      payloadOf(cursor),
      `${cursor}x`,
    ];
    for (const forged of tampered) {
      const answer = await refusal(list(new URLSearchParams({ createdFrom: since, limit: "1", cursor: forged })));
      expect(answer, forged).toMatchObject({ status: 400, code: "validation_failed" });
      expect(
        answer.fields.map((f) => f.field),
        forged,
      ).toEqual(["cursor"]);
    }
    // Another partner's request with this partner's cursor (the same filters): refused too.
    const other = await refusal(list(new URLSearchParams({ createdFrom: since, limit: "1", cursor }), DEMO_BLUE_PARTNER_SECRET));
    expect(other).toMatchObject({ status: 400, fields: [{ field: "cursor", message: expect.any(String) }] });
  });

  it("answers the fuzz's forged cursors with a 400 naming cursor, never anything else", async () => {
    await fc.assert(
      fc.asyncProperty(forgedCursor, async (cursor) => {
        const answer = await refusal(list(new URLSearchParams({ cursor })));
        expect(answer.status).toBe(400);
        expect(answer.fields.map((f) => f.field)).toContain("cursor");
      }),
      { numRuns: 150, seed: 49 },
    );
  });

  it("counts against the read budget: 429 past it", async () => {
    const limits = throttles(2);
    await list("limit=1", DEMO_SECRET, limits);
    await list("limit=1", DEMO_SECRET, limits);
    expect(await refusal(list("limit=1", DEMO_SECRET, limits))).toMatchObject({ status: 429, code: "rate_limited" });
    expect(await refusal(list("limit=1", "not_a_secret_of_anyone_0123", limits))).toMatchObject({ status: 401, code: "unauthorized" });
  });
});
