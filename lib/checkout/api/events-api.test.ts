/**
 * The partner's event feed (GET /api/events) on a real checkout against the sandbox: a partner
 * whose endpoint was down catches up on every notification, in order, with the payloads later
 * delivered signed; only its own, numbered by itself; pages by signed cursor; a forged, altered or
 * another partner's cursor, and bad `after`/`limit`, are a 400 naming the field; a number of the
 * feed's earlier, deployment-wide form still resumes where it meant; every answer as the OpenAPI
 * document says.
 */
import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import type { Database } from "@/lib/db";
import { getEnv } from "@/lib/config/env";
import { parseKeyring } from "@/lib/config/keyring";
import { partnerEventCounters, partnerNotifications, partners } from "@/lib/db/schema";
import { DEMO_BLUE_PARTNER_ID, DEMO_BLUE_PARTNER_SECRET, seedDemoPartner } from "@/lib/demo/seed";
import { forgetPartner } from "@/lib/partners/cache";
import { partnerById, type Partner } from "@/lib/partners/partners";
import { sealPartnerSecret } from "@/lib/partners/secrets";
import { createOpenApiChecker } from "@/lib/sandbox/testing/openapi-check";
import { forgedEventCursor } from "@/lib/testing/fuzz/cursors";
import { decideAtProvider, startSandboxServer, startWebhookListener } from "@/lib/sandbox/testing/servers";
import { newSigningSecret } from "../background/notification-send";
import { deliverDueNotifications } from "../background/notifications";
import { loadOffers, refreshStatus, type CheckoutContext } from "../session/flow";
import { submitCustomer } from "../session/submit";
import { enqueueNotification } from "../session/outbox";
import { createSession, requireSession } from "../session/sessions";
import { BROWSER, customerDraft, DEMO_SECRET, sessionAtProvider, sessionInput, testContext, testBuckets } from "../testing/context";
import type { EventListResource } from "./api-schemas";
import { decodeEventCursor, deliveryOf, encodeEventCursor, handleListEvents, parseEventsQuery } from "./events-api";
import { buildCheckoutApiDocument } from "./openapi";
import { handleGetSession, type SessionsApiThrottles } from "./sessions-api";

const APP_URL = "http://127.0.0.1:9";
const checker = createOpenApiChecker(buildCheckoutApiDocument({ serverUrl: `${APP_URL}/api` }));

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let endpoint: Awaited<ReturnType<typeof startWebhookListener>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
const secret = newSigningSecret();
const context = () => Promise.resolve(ctx);
/** Who a cursor is for, and what signs it: the app's keyring. */
const scope = (partnerId = partner.id) => ({ partnerId, keyring: getEnv().SECRETS_KEYS });
/** The position in the feed an event's cursor stands for. */
const positionOf = (cursor: string, partnerId = partner.id) => decodeEventCursor(cursor, scope(partnerId));

function throttles(reads = 1_000): SessionsApiThrottles {
  const buckets = testBuckets;
  return {
    createPerPartner: buckets(100),
    createPerIp: buckets(100),
    wrongSecretsPerIp: buckets(100),
    readsPerPartner: buckets(reads),
    trustedProxyHops: 0,
  };
}

/** GET /api/events as the route answers it: status and JSON body, checked against the document. */
async function listEvents(query: string, bearer = DEMO_SECRET, limits = throttles()): Promise<{ status: number; body: unknown }> {
  const request = new Request(`${APP_URL}/api/events${query}`, { headers: { Authorization: `Bearer ${bearer}` } });
  let status: number;
  let body: unknown;
  try {
    body = await handleListEvents(request, limits, context);
    status = 200;
  } catch (error) {
    const response = errorResponse(error);
    status = response.status;
    body = await response.json();
  }
  expect(checker.check({ method: "GET", path: `/events${query}`, status, body })).toEqual({ ok: true });
  return { status, body };
}

/** Every event, a page of `limit` at a time from the start, and the cursors asked with. */
async function allEvents(limit: number): Promise<{ events: EventListResource["events"]; pages: number }> {
  const events: EventListResource["events"] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const { status, body } = await listEvents(`?limit=${limit}${after === null ? "" : `&after=${after}`}`);
    expect(status).toBe(200);
    const page = body as EventListResource;
    pages += 1;
    events.push(...page.events);
    after = page.nextCursor;
    if (!page.hasMore) return { events, pages };
  }
}

beforeAll(async () => {
  sandbox = await startSandboxServer();
  endpoint = await startWebhookListener();
  ({ ctx, database, partner } = await testContext(sandbox.baseUrl, { appUrl: APP_URL }));
  await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: APP_URL, secondPartner: true });
  await ctx.db
    .update(partners)
    .set({ notificationUrl: endpoint.url, signingSecret: sealPartnerSecret(partner.id, "signingSecret", secret) })
    .where(eq(partners.id, partner.id));
  forgetPartner(partner.id);
  // Only this test's notifications from here, each partner's numbered from 1.
  await ctx.db.delete(partnerNotifications);
  await ctx.db.delete(partnerEventCounters);
});

afterAll(async () => {
  await sandbox?.close();
  await endpoint?.close();
  await database?.close();
});

describe("the event feed", () => {
  it("catches a partner whose endpoint was down up on every notification, in order, with the payloads delivered later", async () => {
    endpoint.answerWith(503);
    // A checkout to the end: choosing, pending, confirmed.
    const financed = await sessionAtProvider(ctx, partner, sessionInput({}, APP_URL));
    await decideAtProvider(sandbox.origin, financed.operationId!);
    await refreshStatus(ctx, financed.id, "return");
    // One that can never be financed: choosing, not_eligible.
    const { session: refused } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    expect(await submitCustomer(ctx, refused.id, customerDraft("ana+not_eligible@example.com"), BROWSER)).toEqual({ ok: true });
    expect(await loadOffers(ctx, await requireSession(ctx.db, refused.id))).toEqual({ kind: "not_eligible" });
    const start = new Date();
    expect(await deliverDueNotifications(ctx, { now: start })).toBe(0);

    const down = await allEvents(2);
    expect(down.pages).toBe(3);
    expect(down.events.map((e) => [e.data.id, e.type])).toEqual([
      [financed.id, "checkout.session.choosing"],
      [financed.id, "checkout.session.pending"],
      [financed.id, "checkout.session.confirmed"],
      [refused.id, "checkout.session.choosing"],
      [refused.id, "checkout.session.not_eligible"],
    ]);
    // The partner's own positions, 1 to 5, each an opaque cursor.
    expect(down.events.map((e) => positionOf(e.cursor))).toEqual([1, 2, 3, 4, 5]);
    expect(down.events.every((e) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(e.cursor) && !/^[0-9]+$/.test(e.cursor))).toBe(true);
    for (const event of down.events) {
      expect(event.delivery).toMatchObject({
        status: "retrying",
        attempts: 1,
        lastStatusCode: 503,
        lastError: "HTTP 503",
        deliveredAt: null,
      });
    }
    // The pending event says the status GET said then; the final ones say they are final.
    expect(down.events[1]!.data.operation?.status).toBe("CLIENT_REQUESTED");
    expect(down.events[4]!.data).toMatchObject({ state: "not_eligible", final: true });
    expect(
      await handleGetSession(
        new Request(`${APP_URL}/api/checkout-sessions/${refused.id}`, { headers: { Authorization: `Bearer ${DEMO_SECRET}` } }),
        refused.id,
        throttles(),
        context,
      ),
    ).toMatchObject(down.events[4]!.data);

    // The endpoint is back: the retries deliver the same events, signed.
    endpoint.answerWith(204);
    await deliverDueNotifications(ctx, { now: new Date(start.getTime() + 60_000) });
    const delivered = endpoint.received.filter((r) => r.headers["webhook-id"] && (r.body as unknown as { type?: string }).type);
    for (const event of down.events) {
      const deliveries = delivered.filter((r) => r.headers["webhook-id"] === event.id);
      expect(deliveries.length).toBeGreaterThanOrEqual(1);
      const last = deliveries.at(-1)!;
      const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, String(last.headers[h])]));
      expect(new Webhook(secret).verify(JSON.stringify(last.body), headers)).toEqual({
        type: event.type,
        timestamp: event.timestamp,
        data: event.data,
      });
    }
    const after = await allEvents(100);
    expect(after.events.map((e) => e.id)).toEqual(down.events.map((e) => e.id));
    expect(after.events.every((e) => e.delivery.status === "delivered" && e.delivery.nextAttemptAt === null)).toBe(true);

    // From a cursor: only what follows it; past the last, nothing, and the cursor back.
    const { body } = await listEvents(`?after=${down.events[2]!.cursor}`);
    expect((body as EventListResource).events.map((e) => e.id)).toEqual(down.events.slice(3).map((e) => e.id));
    const last = down.events.at(-1)!.cursor;
    expect((await listEvents(`?after=${last}`)).body).toEqual({ events: [], nextCursor: last, hasMore: false });
  });

  it("lists only the caller's own partner's events, also those waiting for a notification URL", async () => {
    expect((await listEvents("", DEMO_BLUE_PARTNER_SECRET)).body).toEqual({ events: [], nextCursor: null, hasMore: false });
    expect((await listEvents("", "not-a-secret")).status).toBe(401);

    // Rutas Azules has no notification URL: its notification waits, and the feed says so.
    const blue = (await partnerById(ctx.db, DEMO_BLUE_PARTNER_ID))!;
    const { session } = await createSession(ctx.db, blue, sessionInput({}, APP_URL));
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toEqual({ ok: true });
    await deliverDueNotifications(ctx);
    const { events } = (await listEvents("", DEMO_BLUE_PARTNER_SECRET)).body as EventListResource;
    expect(events.map((e) => [e.data.id, e.type, e.delivery.status, e.delivery.attempts])).toEqual([
      [session.id, "checkout.session.choosing", "not_configured", 0],
    ]);
    // Numbered by itself: its first event is its position 1, whatever the other partner wrote before.
    expect(positionOf(events[0]!.cursor, DEMO_BLUE_PARTNER_ID)).toBe(1);
    const ours = (await listEvents("?limit=100")).body as EventListResource;
    expect(ours.events.some((e) => e.data.id === session.id)).toBe(false);
    // Its cursor, sent by the other partner, is no cursor of that one's feed.
    const theirs = await listEvents(`?after=${events[0]!.cursor}`);
    expect(theirs.status).toBe(400);
    expect(theirs.body).toMatchObject({ error: { code: "validation_failed", fields: [{ field: "after" }] } });
  });

  it("answers a bad after or limit with a 400 naming the field", async () => {
    for (const [query, field] of [
      ["?after=abc", "after"],
      ["?after=", "after"],
      ["?after=1.5.2", "after"],
      ["?after=-1", "after"],
      ["?after=1.5", "after"],
      ["?after=99999999999999999", "after"],
      ["?after=9999999999999999", "after"],
      ["?after=1&after=2", "after"],
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?limit=1000", "limit"],
    ] as const) {
      const { status, body } = await listEvents(query);
      expect(status, query).toBe(400);
      expect((body as { error: { code: string; fields: { field: string }[] } }).error).toMatchObject({
        code: "validation_failed",
        fields: [{ field }],
      });
    }
    // Both at once: both named.
    expect(() => parseEventsQuery(new URLSearchParams("after=x&limit=0"), scope())).toThrow(AppError);
    try {
      parseEventsQuery(new URLSearchParams("after=x&limit=0"), scope());
    } catch (error) {
      expect((error as AppError).details.fields?.map((f) => f.field)).toEqual(["after", "limit"]);
    }
    expect(parseEventsQuery(new URLSearchParams(""), scope())).toEqual({ after: undefined, limit: 50 });
    expect(parseEventsQuery(new URLSearchParams("after=0&limit=100"), scope())).toEqual({ after: { position: 0 }, limit: 100 });
    expect(parseEventsQuery(new URLSearchParams("after=1042"), scope())).toEqual({ after: { legacySeq: 1042 }, limit: 50 });
    const cursor = encodeEventCursor(7, scope());
    expect(parseEventsQuery(new URLSearchParams({ after: cursor }), scope())).toEqual({ after: { position: 7 }, limit: 50 });
  });

  it("refuses a cursor forged, altered in any way, signed by another key, or given to another partner, with a 400 naming after", async () => {
    const { body } = await listEvents("?limit=2");
    const cursor = (body as EventListResource).nextCursor!;
    const [payload, mac] = cursor.split(".") as [string, string];
    const at = (position: unknown) => Buffer.from(JSON.stringify([position])).toString("base64url");
    const otherKeyring = parseKeyring(`other:${Buffer.alloc(32, 7).toString("base64")}`);
    const forged = [
      // Another position under the same signature: a walk elsewhere in the feed.
      `${at(1)}.${mac}`,
      `${at(-1)}.${mac}`,
      `${at("2")}.${mac}`,
      `${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      `${cursor}x`,
      payload,
      `${payload}.`,
      // Signed, but not for this feed and partner.
      encodeEventCursor(2, { partnerId: DEMO_BLUE_PARTNER_ID, keyring: getEnv().SECRETS_KEYS }),
      encodeEventCursor(2, { partnerId: partner.id, keyring: otherKeyring }),
    ];
    for (const after of forged) {
      const answer = await listEvents(`?${new URLSearchParams({ after })}`);
      expect(answer.status, after).toBe(400);
      expect(answer.body, after).toMatchObject({
        error: { code: "validation_failed", fields: [{ field: "after", message: "must be a cursor this feed gave you" }] },
      });
    }
    // The cursor as given still reads.
    expect((await listEvents(`?after=${cursor}`)).status).toBe(200);
  });

  it("answers the fuzz's forged event cursors with a 400 naming after, or a page: never anything else", async () => {
    await fc.assert(
      fc.asyncProperty(forgedEventCursor, async (after) => {
        const { status, body } = await listEvents(`?${new URLSearchParams({ after })}`);
        if (status === 200) {
          // Only a number of the earlier form is read as a cursor without a signature.
          expect(after).toMatch(/^[0-9]{1,16}$/);
          return;
        }
        expect(status).toBe(400);
        expect((body as { error: { fields: { field: string }[] } }).error.fields.map((f) => f.field)).toEqual(["after"]);
      }),
      { numRuns: 150, seed: 49 },
    );
  });

  it("reads a number of the feed's earlier, deployment-wide form as the partner's first event numbered above it, among those it was handed", async () => {
    // The deployment-wide numbers of this partner's events so far, and of the other partner's (written after them).
    const seqs = async (partnerId: string) =>
      (
        await ctx.db
          .select({ seq: partnerNotifications.seq })
          .from(partnerNotifications)
          .where(eq(partnerNotifications.partnerId, partnerId))
          .orderBy(asc(partnerNotifications.seq))
      ).map((row) => row.seq);
    // As the migration to positions leaves a partner whose feed handed out numbers up to its fifth event's.
    const handedOut = await seqs(partner.id);
    expect(handedOut).toHaveLength(5);
    await ctx.db.update(partnerEventCounters).set({ legacyLastSeq: handedOut[4]! }).where(eq(partnerEventCounters.partnerId, partner.id));
    // One more event of ours, written after the other partner's.
    const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    await ctx.db.transaction((tx) => enqueueNotification(tx, session));
    const ours = await seqs(partner.id);
    const [blue] = await seqs(DEMO_BLUE_PARTNER_ID);
    expect(blue!).toBeGreaterThan(ours[4]!);
    expect(blue!).toBeLessThan(ours[5]!);

    const page = async (after: number) => (await listEvents(`?after=${after}`)).body as EventListResource;
    // After our second event's number: our third onwards, with cursors of the current form.
    const fromSecond = await page(ours[1]!);
    expect(fromSecond.events.map((e) => positionOf(e.cursor))).toEqual([3, 4, 5, 6]);
    expect(fromSecond.nextCursor).toBe(fromSecond.events.at(-1)!.cursor);
    expect((await page(0)).events.map((e) => positionOf(e.cursor))).toEqual([1, 2, 3, 4, 5, 6]);
    // Any number past the last one we were handed (the other partner's, our sixth event's, any larger)
    // reads as that last one: the same answer, which says nothing of the sequence since.
    for (const after of [ours[4]!, blue!, ours[5]!, ours[5]! + 1_000]) {
      const answer = await page(after);
      expect(answer.events.map((e) => e.data.id)).toEqual([session.id]);
      expect(positionOf(answer.nextCursor!)).toBe(6);
    }
  });

  it("counts against the partner's read budget", async () => {
    const limits = throttles(2);
    expect((await listEvents("", DEMO_SECRET, limits)).status).toBe(200);
    expect((await listEvents("", DEMO_SECRET, limits)).status).toBe(200);
    expect((await listEvents("", DEMO_SECRET, limits)).status).toBe(429);
  });
});

describe("an event's delivery", () => {
  const row = { attempts: 0, lastAttemptAt: null, lastStatusCode: null, lastError: null, nextAttemptAt: new Date(0), deliveredAt: null };

  it("says whether it was delivered, waits to be tried, is retried, or waits for a URL", () => {
    expect(deliveryOf(row, true).status).toBe("pending");
    expect(deliveryOf({ ...row, attempts: 2, lastError: "timeout" }, true)).toMatchObject({
      status: "retrying",
      nextAttemptAt: new Date(0).toISOString(),
    });
    expect(deliveryOf(row, false)).toMatchObject({ status: "not_configured", nextAttemptAt: null });
    expect(deliveryOf({ ...row, attempts: 1, deliveredAt: new Date(1) }, false)).toMatchObject({
      status: "delivered",
      nextAttemptAt: null,
    });
  });
});
