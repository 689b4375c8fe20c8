/**
 * Outcomes that are never lost: partner notifications from the outbox (signed, retried, once per
 * state) and the reconciler (finds an outcome whose webhook never came; one instance at a time).
 */
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { idempotencyKeys, partnerNotifications, partners, tokenBuckets } from "@/lib/db/schema";
import { BUCKET_FULL_AFTER_MS, takeTokens } from "@/lib/security/limits/shared-token-bucket";
import { decideAtProvider, startSandboxServer, startWebhookListener } from "@/lib/sandbox/testing/servers";
import { refreshStatus, type CheckoutContext } from "../session/flow";
import { submitCustomer } from "../session/submit";
import { setNotificationUrl } from "./notification-url";
import { newSigningSecret, NOTIFICATION_USER_AGENT } from "./notification-send";
import { deliverDueNotifications } from "./notifications";
import type { Partner } from "@/lib/partners/partners";
import { acquireLease, reconcile, RECONCILE_AFTER_MS, releaseLease } from "./reconciler";
import { claimIdempotencyKey, completeIdempotencyKey, IDEMPOTENCY_KEY_TTL_MS } from "../api/idempotency";
import { requestFingerprint } from "../api/idempotency-key";
import { notifyExpiredSessions } from "../session/outbox";
import { sessionState } from "../session/session-state";
import { createSession, requireSession } from "../session/sessions";
import { recordOperationStatus } from "../session/session-status";
import { BROWSER, customerDraft, sessionAtProvider, sessionInput, testContext } from "../testing/context";

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let partnerBackend: Awaited<ReturnType<typeof startWebhookListener>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
const secret = newSigningSecret();

beforeAll(async () => {
  sandbox = await startSandboxServer();
  partnerBackend = await startWebhookListener();
  // The app's webhook URL goes nowhere here: outcomes must be found without webhooks.
  ({ ctx, database, partner } = await testContext(sandbox.baseUrl, { appUrl: "http://127.0.0.1:9" }));
  await ctx.db.update(partners).set({ notificationUrl: partnerBackend.url, signingSecret: secret }).where(eq(partners.id, partner.id));
});

afterAll(async () => {
  await sandbox?.close();
  await partnerBackend?.close();
  await database?.close();
});

const atProvider = () => sessionAtProvider(ctx, partner, sessionInput({}, "http://127.0.0.1:9"));
const approve = (operationId: string) => decideAtProvider(sandbox.origin, operationId);

function received(sessionId: string) {
  return partnerBackend.received.filter((r) => (r.body as unknown as { data: { id: string } }).data.id === sessionId);
}

describe("partner notifications", () => {
  it("tell the partner of each state reached, signed in the Standard Webhooks format, once", async () => {
    const session = await atProvider();
    await approve(session.operationId!);
    await refreshStatus(ctx, session.id, "return");
    await deliverDueNotifications(ctx);
    await deliverDueNotifications(ctx);

    const deliveries = received(session.id);
    expect(deliveries.map((d) => (d.body as unknown as { type: string }).type)).toEqual([
      "checkout.session.choosing",
      // The provider accepted the request: the customer is at its page (no status said so yet).
      "checkout.session.pending",
      "checkout.session.confirmed",
    ]);
    for (const delivery of deliveries) {
      expect(delivery.headers["user-agent"]).toBe(NOTIFICATION_USER_AGENT);
      const headers = {
        "webhook-id": String(delivery.headers["webhook-id"]),
        "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
        "webhook-signature": String(delivery.headers["webhook-signature"]),
      };
      // The partner's side, with the reference library: a valid signature, and our payload back.
      expect(new Webhook(secret).verify(JSON.stringify(delivery.body), headers)).toEqual(delivery.body);
      expect(() => new Webhook(newSigningSecret()).verify(JSON.stringify(delivery.body), headers)).toThrow();
    }
    const confirmed = deliveries[2]!.body as unknown as { data: Record<string, unknown> };
    expect(confirmed.data).toMatchObject({ id: session.id, state: "confirmed", final: true, operation: { status: "CONFIRMED" } });
    expect(JSON.stringify(confirmed)).not.toContain("García");
  });

  it("are retried with backoff until the partner answers 2xx", async () => {
    const session = await atProvider();
    partnerBackend.answerWith(503);
    await approve(session.operationId!);
    await refreshStatus(ctx, session.id, "poll");
    const start = new Date();
    await deliverDueNotifications(ctx, { now: start });
    const [row] = await ctx.db
      .select()
      .from(partnerNotifications)
      .where(eq(partnerNotifications.sessionId, session.id))
      .orderBy(partnerNotifications.createdAt);
    expect(row).toMatchObject({ deliveredAt: null, lastError: "HTTP 503", attempts: 1 });
    // Not due again at once...
    expect(await deliverDueNotifications(ctx, { now: start })).toBe(0);
    partnerBackend.answerWith(200);
    // ...but after the backoff.
    expect(await deliverDueNotifications(ctx, { now: new Date(start.getTime() + 60_000) })).toBeGreaterThanOrEqual(1);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(rows.every((r) => r.deliveredAt !== null)).toBe(true);
  });

  it("50 racing reports of one outcome give one transition and one notification", async () => {
    const session = await atProvider();
    const report = { status: "CONFIRMED" as const, updatedAt: new Date().toISOString() };
    const applied = await Promise.all(
      Array.from({ length: 50 }, () =>
        recordOperationStatus(ctx.db, { sessionId: session.id, operationId: session.operationId! }, report, "webhook"),
      ),
    );
    expect(applied.filter(Boolean)).toHaveLength(1);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(rows.filter((r) => r.state === "confirmed")).toHaveLength(1);
  });
});

describe("partner notifications without a notification URL", () => {
  it("wait in the outbox, unattempted, and go out once a URL is saved", async () => {
    expect(await setNotificationUrl(ctx.db, partner.id, "", "sandbox")).toEqual({ ok: true, url: null });
    try {
      const { session } = await createSession(ctx.db, partner, sessionInput({}, "http://127.0.0.1:9"));
      await submitCustomer(ctx, session.id, customerDraft(), BROWSER);
      const [waiting] = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
      expect(waiting, "the state change is in the outbox all the same").toMatchObject({ state: "choosing", deliveredAt: null });
      await deliverDueNotifications(ctx);
      const [still] = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
      expect(still).toMatchObject({ deliveredAt: null, attempts: 0, lastError: null });
      expect(received(session.id)).toEqual([]);

      // The partner saves its URL: what waited is sent at the next round.
      expect(await setNotificationUrl(ctx.db, partner.id, partnerBackend.url, "sandbox")).toMatchObject({ ok: true });
      await deliverDueNotifications(ctx);
      expect(received(session.id).map((d) => (d.body as unknown as { type: string }).type)).toEqual(["checkout.session.choosing"]);
    } finally {
      await setNotificationUrl(ctx.db, partner.id, partnerBackend.url, "sandbox");
    }
  });

  it("that failed at the old URL are due at once at a new one, not after their backoff", async () => {
    const session = await atProvider();
    partnerBackend.answerWith(503);
    const start = new Date();
    try {
      await deliverDueNotifications(ctx, { now: start });
      const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
      expect(rows.some((row) => row.lastError === "HTTP 503")).toBe(true);
      expect(await deliverDueNotifications(ctx, { now: start }), "postponed").toBe(0);
    } finally {
      partnerBackend.answerWith(200);
    }
    await setNotificationUrl(ctx.db, partner.id, partnerBackend.url, "sandbox");
    await deliverDueNotifications(ctx);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.deliveredAt !== null)).toBe(true);
  });
});

describe("a session that expires before its customer sent anything", () => {
  it("is announced as expired, once, by the reconciler's round", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({}, "http://127.0.0.1:9"));
    const started = await atProvider();
    const later = new Date(session.expiresAt.getTime() + 1_000);
    expect(sessionState(session, later)).toBe("expired");

    expect(await reconcile(ctx, { now: later, holder: "expiry-test" })).not.toBeNull();
    // A lease taken a day ahead: given back, for the other tests' rounds.
    expect(await releaseLease(ctx.db, "reconciler", "expiry-test")).toBe(true);
    expect(await notifyExpiredSessions(ctx.db, later), "announced already").toBe(0);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(rows.map((row) => row.state)).toEqual(["expired"]);
    const startedRows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, started.id));
    expect(
      startedRows.map((row) => row.state),
      "a session with an operation ends by its status, not the clock",
    ).not.toContain("expired");

    await deliverDueNotifications(ctx, { now: later });
    const [expired] = received(session.id);
    expect(expired?.body).toMatchObject({
      type: "checkout.session.expired",
      data: { id: session.id, state: "expired", final: true, operation: null },
    });
  });

  it("is not announced before it expires, nor long after (outside the sweep's window)", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({}, "http://127.0.0.1:9"));
    await notifyExpiredSessions(ctx.db, new Date(session.expiresAt.getTime() - 1_000));
    await notifyExpiredSessions(ctx.db, new Date(session.expiresAt.getTime() + 3 * 24 * 3_600_000));
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(rows).toEqual([]);
  });
});

describe("the reconciler", () => {
  it("finds an outcome whose webhook never came", async () => {
    const session = await atProvider();
    await approve(session.operationId!);
    await sandbox.sandbox.engine.idle(); // the webhook went nowhere
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("pending");
    // Not yet: the session changed less than a few minutes ago.
    await reconcile(ctx, { holder: "a" });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("pending");
    await reconcile(ctx, { holder: "a", now: new Date(Date.now() + RECONCILE_AFTER_MS + 1000) });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("confirmed");
  });

  it("runs on one instance at a time (a lease), and another takes over when it lapses", async () => {
    const now = new Date();
    expect(await acquireLease(ctx.db, "test-lease", "instance-1", now, 60_000)).toBe(true);
    expect(await acquireLease(ctx.db, "test-lease", "instance-2", now, 60_000)).toBe(false);
    expect(await acquireLease(ctx.db, "test-lease", "instance-1", new Date(now.getTime() + 30_000), 60_000)).toBe(true);
    expect(await acquireLease(ctx.db, "test-lease", "instance-2", new Date(now.getTime() + 60_000), 60_000)).toBe(false);
    expect(await acquireLease(ctx.db, "test-lease", "instance-2", new Date(now.getTime() + 91_000), 60_000)).toBe(true);
    const racing = await Promise.all(["x", "y", "z"].map((h) => acquireLease(ctx.db, "race", h, now)));
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await reconcile(ctx, { holder: "not-the-holder", now: new Date(Date.now() + 1000) })).toBe(null);
  });

  it("deletes the shared token buckets nobody took from for a day, and keeps the others", async () => {
    const t0 = new Date();
    const rule = { capacity: 2, perHour: 60 };
    await takeTokens(ctx.db, [{ key: "reconciler-test:old", rule }], t0);
    await takeTokens(ctx.db, [{ key: "reconciler-test:new", rule }], new Date(t0.getTime() + 60_000));
    const keys = async () =>
      (await ctx.db.select({ key: tokenBuckets.key }).from(tokenBuckets))
        .map((row) => row.key)
        .filter((key) => key.startsWith("reconciler-test:"))
        .sort();
    expect(await keys()).toEqual(["reconciler-test:new", "reconciler-test:old"]);
    expect(await reconcile(ctx, { holder: "bucket-test", now: new Date(t0.getTime() + BUCKET_FULL_AFTER_MS + 1) })).not.toBeNull();
    expect(await releaseLease(ctx.db, "reconciler", "bucket-test")).toBe(true);
    expect(await keys()).toEqual(["reconciler-test:new"]);
  });

  it("deletes the API's Idempotency-Keys once their 24 hours are over", async () => {
    const t0 = new Date();
    const keyed = (key: string) => ({
      partnerId: partner.id,
      method: "POST",
      path: "/api/checkout-sessions",
      key,
      requestHash: requestFingerprint("{}"),
    });
    for (const [key, at] of [
      ["old-key", t0],
      ["new-key", new Date(t0.getTime() + 60_000)],
    ] as const) {
      await claimIdempotencyKey(ctx.db, keyed(key), at);
      await completeIdempotencyKey(ctx.db, keyed(key), { status: 201, contentType: "application/json", body: "{}" });
    }
    const keys = async () => (await ctx.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((row) => row.key).sort();
    expect(await keys()).toEqual(["new-key", "old-key"]);
    expect(await reconcile(ctx, { holder: "purge-test", now: new Date(t0.getTime() + IDEMPOTENCY_KEY_TTL_MS) })).not.toBeNull();
    expect(await releaseLease(ctx.db, "reconciler", "purge-test")).toBe(true);
    expect(await keys()).toEqual(["new-key"]);
  });
});
