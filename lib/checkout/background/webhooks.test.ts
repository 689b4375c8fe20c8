/**
 * Webhooks from the partner API, against the sandbox over real HTTP: the sandbox delivers to a
 * receiver on a loopback port that does what the route handler does (store, answer, then process).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { partnerNotifications, sessionStatusHistory, webhookEvents } from "@/lib/db/schema";
import { createFinancingClient } from "@/lib/financing/client";
import { createFetchDouble, json } from "@/lib/financing/testing/fetch-double";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import type { CheckoutContext } from "../session/flow";
import type { Partner } from "@/lib/partners/partners";
import { sessionState } from "../session/session-state";
import { requireSession } from "../session/sessions";
import { sessionAtProvider, sessionInput, testContext } from "../testing/context";
import { processWebhookEvent, receiveWebhook, webhookEvent, WEBHOOK_BODY_MAX_BYTES } from "./webhooks";

const KEY = "fk_test_sandbox_agency_101";

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let receiver: Server;
let receiverOrigin: string;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
/** What processing returned, per delivery: the route handler runs it after answering. */
const processing: Promise<unknown>[] = [];
let processingEnabled = true;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  receiver = await new Promise<Server>((resolve) => {
    const s = serve(
      {
        port: 0,
        hostname: "127.0.0.1",
        fetch: async (request) => {
          const token = new URL(request.url).pathname.split("/").at(-1) ?? "";
          const result = await receiveWebhook(ctx, token, request);
          if (result.status !== 200) return new Response(null, { status: result.status });
          if (result.process && processingEnabled) processing.push(processWebhookEvent(ctx, result));
          return Response.json({ received: true, duplicate: result.duplicate });
        },
      },
      () => resolve(s as Server),
    );
  });
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  ({ ctx, database, partner } = await testContext(sandbox.baseUrl, { appUrl: receiverOrigin }));
});

afterAll(async () => {
  await sandbox?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await database?.close();
});

beforeEach(() => {
  processingEnabled = true;
});

async function settle() {
  await sandbox.sandbox.engine.idle();
  await Promise.all(processing.splice(0));
}

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.origin}/sandbox/_control${path}`, {
    method,
    headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

/** A session whose customer chose a plan and is at the provider. */
const atProvider = () => sessionAtProvider(ctx, partner, sessionInput({}, receiverOrigin));

function deliver(body: unknown, token = ctx.webhookToken, headers: Record<string, string> = {}) {
  return fetch(`${receiverOrigin}/api/webhooks/financing/${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function sandboxEvents(operationId: string) {
  return (await control("GET", `/operations/${operationId}/webhooks`)) as {
    eventId: number;
    status: string;
    attempts: number;
    acknowledged: boolean;
  }[];
}

describe("receiving", () => {
  it("a wrong token is a 404 and stores nothing", async () => {
    const response = await deliver(
      { operationIdentifier: "op_x", operationStatus: "CONFIRMED", eventId: 900001 },
      "wrong-token-000000000000000",
    );
    expect(response.status).toBe(404);
    expect(await webhookEvent(ctx, { eventId: 900001, operationId: "op_x" })).toBeUndefined();
  });

  it("an oversized or malformed body is refused and stores nothing", async () => {
    const big = JSON.stringify({ operationIdentifier: "x".repeat(WEBHOOK_BODY_MAX_BYTES), operationStatus: "CONFIRMED", eventId: 900002 });
    expect((await deliver(big)).status).toBe(413);
    expect((await deliver("{not json")).status).toBe(400);
    expect((await deliver({ operationIdentifier: "op_x", operationStatus: "PENDING", eventId: 900003 })).status).toBe(400);
    expect((await deliver({ operationIdentifier: "op_x", operationStatus: "CONFIRMED", eventId: "x" })).status).toBe(400);
    expect(await webhookEvent(ctx, { eventId: 900002, operationId: "x".repeat(WEBHOOK_BODY_MAX_BYTES) })).toBeUndefined();
    expect(await webhookEvent(ctx, { eventId: 900003, operationId: "op_x" })).toBeUndefined();

    // In the API's error format, naming the fields; too large the same way with or without a declared length.
    const url = `${receiverOrigin}/api/webhooks/financing/${ctx.webhookToken}`;
    const streamed = new Request(url, {
      method: "POST",
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    expect(streamed.headers.get("content-length")).toBeNull();
    const tooLarge = {
      status: 413,
      code: "payload_too_large",
      fields: [{ field: "(body)", message: `The body is larger than ${WEBHOOK_BODY_MAX_BYTES} bytes` }],
    };
    expect(await receiveWebhook(ctx, ctx.webhookToken, streamed)).toMatchObject(tooLarge);
    expect(await receiveWebhook(ctx, ctx.webhookToken, new Request(url, { method: "POST", body: big }))).toMatchObject(tooLarge);
    const invalid = new Request(url, {
      method: "POST",
      body: JSON.stringify({ operationIdentifier: "op_x", operationStatus: "PENDING", eventId: 9 }),
    });
    expect(await receiveWebhook(ctx, ctx.webhookToken, invalid)).toMatchObject({
      status: 400,
      code: "validation_failed",
      fields: [{ field: "operationStatus" }],
    });
  });

  it("an unknown operation is rejected, without acknowledging anything", async () => {
    processingEnabled = true;
    expect((await deliver({ operationIdentifier: "op_not_ours", operationStatus: "CONFIRMED", eventId: 900004 })).status).toBe(200);
    await settle();
    expect(await webhookEvent(ctx, { eventId: 900004, operationId: "op_not_ours" })).toMatchObject({ result: "rejected" });
  });
});

describe("an outcome through the webhook alone", () => {
  it("reaches the session although the customer never comes back, is acknowledged, and is not redelivered", async () => {
    const session = await atProvider();
    await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
    await settle();
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("confirmed");
    const [event] = await sandboxEvents(session.operationId!);
    expect(event).toMatchObject({ status: "CONFIRMED", acknowledged: true, attempts: 1 });
    expect(await webhookEvent(ctx, { eventId: event!.eventId, operationId: session.operationId! })).toMatchObject({
      result: "acknowledged",
      deliveries: 1,
    });
    await control("POST", "/clock/advance", { seconds: 7 * 24 * 3600 });
    await control("POST", "/webhooks/redeliver");
    expect((await sandboxEvents(session.operationId!))[0]?.attempts).toBe(1);
    const history = await ctx.db.select().from(sessionStatusHistory).where(eq(sessionStatusHistory.sessionId, session.id));
    expect(history.filter((h) => h.source === "webhook").map((h) => h.status)).toEqual(["CONFIRMED"]);
  });

  it("processing that fails is left unacknowledged, redelivered, and then succeeds", async () => {
    const session = await atProvider();
    await control("PUT", "/faults", { route: "GET /operations/*/status", fault: "503", count: 3 });
    await control("POST", `/operations/${session.operationId}/decision`, { decision: "decline" });
    await settle();
    const [event] = await sandboxEvents(session.operationId!);
    expect(event).toMatchObject({ status: "REFUSED", acknowledged: false });
    expect(await webhookEvent(ctx, { eventId: event!.eventId, operationId: session.operationId! })).toMatchObject({
      processedAt: null,
      lastError: expect.stringContaining("503"),
    });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("pending");

    await control("POST", "/webhooks/redeliver");
    await settle();
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("refused");
    expect((await sandboxEvents(session.operationId!))[0]).toMatchObject({ acknowledged: true, attempts: 2 });
  });

  it("50 concurrent deliveries of one event give one transition", async () => {
    const session = await atProvider();
    processingEnabled = false; // the sandbox's own delivery is stored, not processed
    await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
    await sandbox.sandbox.engine.idle();
    const [event] = await sandboxEvents(session.operationId!);
    processingEnabled = true;
    const body = { operationIdentifier: session.operationId, operationStatus: "CONFIRMED", eventId: event!.eventId };
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(body)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const results = await Promise.all(processing.splice(0));
    expect(results.filter((r) => r === "processed")).toHaveLength(1);
    expect(await ctx.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, event!.eventId))).toHaveLength(1);
    const history = await ctx.db.select().from(sessionStatusHistory).where(eq(sessionStatusHistory.sessionId, session.id));
    expect(history.filter((h) => h.status === "CONFIRMED")).toHaveLength(1);
    expect((await sandboxEvents(session.operationId!))[0]?.acknowledged).toBe(true);
    // And one partner notification of it in the outbox.
    const notifications = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(notifications.filter((n) => n.state === "confirmed")).toHaveLength(1);
  });

  it("a forged status in the body is never applied; the genuine delivery is then acknowledged", async () => {
    const session = await atProvider();
    processingEnabled = false;
    await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
    await sandbox.sandbox.engine.idle();
    const [event] = await sandboxEvents(session.operationId!);
    processingEnabled = true;
    // The same eventId, claiming REFUSED: the status applied comes from the API (CONFIRMED).
    await deliver({ operationIdentifier: session.operationId, operationStatus: "REFUSED", eventId: event!.eventId + 0 });
    await settle();
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("confirmed");
    expect(await webhookEvent(ctx, { eventId: event!.eventId, operationId: session.operationId! })).toMatchObject({
      result: "status_mismatch",
    });
    // The sandbox redelivers the genuine event: it is processed again and acknowledged.
    await control("POST", "/webhooks/redeliver");
    await settle();
    expect(await webhookEvent(ctx, { eventId: event!.eventId, operationId: session.operationId! })).toMatchObject({
      result: "acknowledged",
      claimedStatus: "CONFIRMED",
    });
    expect((await sandboxEvents(session.operationId!))[0]?.acknowledged).toBe(true);
  });

  it("out of order: an older event arriving after a newer one changes nothing", async () => {
    const session = await atProvider();
    processingEnabled = false;
    await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
    await sandbox.sandbox.engine.idle();
    const refund = await fetch(`${sandbox.baseUrl}/operations/${session.operationId}/refund`, {
      method: "POST",
      headers: { "X-Service-API-Key": KEY, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(refund.status).toBe(200);
    await sandbox.sandbox.engine.idle();
    const [confirmed, refunded] = await sandboxEvents(session.operationId!);
    processingEnabled = true;
    await deliver({ operationIdentifier: session.operationId, operationStatus: "REFUNDED", eventId: refunded!.eventId });
    await settle();
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("refunded");
    await deliver({ operationIdentifier: session.operationId, operationStatus: "CONFIRMED", eventId: confirmed!.eventId });
    await settle();
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("refunded");
    expect(await webhookEvent(ctx, { eventId: confirmed!.eventId, operationId: session.operationId! })).toMatchObject({
      result: "superseded",
    });
  });
});

/** The checkout context with a partner API that answers what the test tells its double, once each. */
function answeredByDouble(): { double: ReturnType<typeof createFetchDouble>; stub: CheckoutContext } {
  const double = createFetchDouble("/sandbox/v1");
  const stub: CheckoutContext = {
    ...ctx,
    clientFor: () =>
      createFinancingClient({ baseUrl: sandbox.baseUrl, apiKey: KEY, fetch: double.fetch, sleep: async () => {}, maxAttempts: 1 }),
  };
  return { double, stub };
}

describe("each ack error code", () => {
  const cases = [
    ["OPERATION_NOT_FOUND", 404, "rejected"],
    ["OPERATION_ACCESS_DENIED", 403, "rejected"],
    ["WEBHOOK_EVENT_NOT_FOUND", 404, "rejected"],
    ["WEBHOOK_EVENT_OPERATION_MISMATCH", 403, "rejected"],
    ["WEBHOOK_EVENT_STATUS_MISMATCH", 409, "status_mismatch"],
    ["WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE", 409, "superseded"],
  ] as const;

  it.each(cases)("%s (%i) ends the event: %s", async (code, status, result) => {
    const session = await atProvider();
    const { double, stub } = answeredByDouble();
    double.answer(
      json(200, { operationId: session.operationId, status: "CONFIRMED", updatedAt: new Date().toISOString() }, { ETag: '"CONFIRMED-1"' }),
      json(status, { errorCode: code, message: code }),
    );
    const eventId = 800000 + cases.findIndex((c) => c[0] === code);
    await ctx.db.insert(webhookEvents).values({ eventId, operationId: session.operationId!, claimedStatus: "CONFIRMED" });
    expect(await processWebhookEvent(stub, { eventId, operationId: session.operationId! })).toBe("processed");
    expect(await webhookEvent(ctx, { eventId, operationId: session.operationId! })).toMatchObject({
      processedAt: expect.any(Date),
      result,
    });
    expect(double.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /operations/${session.operationId}/status`,
      "PUT /operations/webhook-events/ack",
    ]);
  });

  it("any other ack failure (a 500) leaves the event to be retried", async () => {
    const session = await atProvider();
    const { double, stub } = answeredByDouble();
    double.answer(
      json(200, { operationId: session.operationId, status: "CONFIRMED", updatedAt: new Date().toISOString() }),
      json(500, { errorCode: "INTERNAL_ERROR", message: "boom" }),
    );
    await ctx.db.insert(webhookEvents).values({ eventId: 800100, operationId: session.operationId!, claimedStatus: "CONFIRMED" });
    expect(await processWebhookEvent(stub, { eventId: 800100, operationId: session.operationId! })).toBe("retry");
    const row = await webhookEvent(ctx, { eventId: 800100, operationId: session.operationId! });
    expect(row).toMatchObject({ processedAt: null, lockedUntil: null, lastError: expect.stringContaining("INTERNAL_ERROR") });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("a forged delivery never pre-empts the genuine event", () => {
  /** The eventId the sandbox will use next: one more than the event of an operation decided now. */
  async function nextSandboxEventId(): Promise<number> {
    const other = await atProvider();
    await control("POST", `/operations/${other.operationId}/decision`, { decision: "approve" });
    await settle();
    const [event] = await sandboxEvents(other.operationId!);
    return event!.eventId + 1;
  }

  it("an eventId posted first with a made-up operation: the genuine event is applied and acknowledged at its first delivery", async () => {
    const session = await atProvider();
    const next = await nextSandboxEventId();
    expect((await deliver({ operationIdentifier: "op_made_up", operationStatus: "CONFIRMED", eventId: next })).status).toBe(200);
    await settle();
    expect(await webhookEvent(ctx, { eventId: next, operationId: "op_made_up" })).toMatchObject({ result: "rejected" });

    await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
    await settle();
    const [event] = await sandboxEvents(session.operationId!);
    expect(event).toMatchObject({ eventId: next, status: "CONFIRMED", acknowledged: true, attempts: 1 });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("confirmed");
    expect(await webhookEvent(ctx, { eventId: next, operationId: session.operationId! })).toMatchObject({
      result: "acknowledged",
      deliveries: 1,
    });
  });

  it.each([
    ["a status the API will not send", "REFUSED"],
    ["the very status the API will send", "CONFIRMED"],
  ] as const)(
    "an eventId posted first with the real operation and %s: the genuine event is applied and acknowledged at its first delivery",
    async (_, forgedStatus) => {
      const session = await atProvider();
      const before = sessionState(await requireSession(ctx.db, session.id));
      const next = await nextSandboxEventId();
      const key = { eventId: next, operationId: session.operationId! };
      await deliver({ operationIdentifier: session.operationId, operationStatus: forgedStatus, eventId: next });
      await settle();
      // The API does not know the event yet: nothing acknowledged, and the session is as it was.
      expect(await webhookEvent(ctx, key)).toMatchObject({ result: "rejected", claimedStatus: forgedStatus });
      expect(sessionState(await requireSession(ctx.db, session.id))).toBe(before);

      await control("POST", `/operations/${session.operationId}/decision`, { decision: "approve" });
      await settle();
      const [event] = await sandboxEvents(session.operationId!);
      expect(event).toMatchObject({ eventId: next, status: "CONFIRMED", acknowledged: true, attempts: 1 });
      expect(sessionState(await requireSession(ctx.db, session.id))).toBe("confirmed");
      expect(await webhookEvent(ctx, key)).toMatchObject({ result: "acknowledged", claimedStatus: "CONFIRMED", deliveries: 2 });
      const history = await ctx.db.select().from(sessionStatusHistory).where(eq(sessionStatusHistory.sessionId, session.id));
      expect(history.filter((h) => h.status === "CONFIRMED").map((h) => h.source)).toEqual(["webhook"]);
    },
  );

  it("the genuine delivery arriving while the forged one is processed is not lost: another pass acknowledges it", async () => {
    const session = await atProvider();
    const key = { eventId: 800200, operationId: session.operationId! };
    const { double, stub } = answeredByDouble();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const status = () => json(200, { operationId: session.operationId, status: "CONFIRMED", updatedAt: new Date().toISOString() });
    double.answer(
      // The forged delivery's pass: the status is read while the genuine delivery comes in...
      async () => {
        await gate;
        return status();
      },
      // ...and its ack is refused: the API did not know the event then.
      json(404, { errorCode: "WEBHOOK_EVENT_NOT_FOUND", message: "Webhook event not found" }),
      // The second pass, for the delivery that came meanwhile.
      status(),
      new Response(null, { status: 204 }),
    );
    const forged = { operationIdentifier: session.operationId, operationStatus: "CONFIRMED", eventId: key.eventId };
    const post = (body: unknown) =>
      new Request("http://127.0.0.1/api/webhooks/financing/t", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await receiveWebhook(stub, ctx.webhookToken, post(forged))).toMatchObject({ status: 200, process: true });
    const first = processWebhookEvent(stub, key);
    await expect.poll(() => double.requests.length).toBe(1);
    const genuine = await receiveWebhook(stub, ctx.webhookToken, post(forged));
    expect(genuine).toMatchObject({ status: 200, duplicate: true, process: true });
    // The event is held by the first processor: this delivery's own processing finds it taken.
    expect(await processWebhookEvent(stub, key)).toBe("skipped");
    release();
    expect(await first).toBe("processed");
    expect(double.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /operations/${session.operationId}/status`,
      "PUT /operations/webhook-events/ack",
      `GET /operations/${session.operationId}/status`,
      "PUT /operations/webhook-events/ack",
    ]);
    expect(await webhookEvent(ctx, key)).toMatchObject({ result: "acknowledged", deliveries: 2, processedAt: expect.any(Date) });
  });

  it("an eventId seen before for another operation (the API reset, or another deployment of it) is a new event", async () => {
    const first = await atProvider();
    await control("POST", `/operations/${first.operationId}/decision`, { decision: "approve" });
    await settle();
    const [old] = await sandboxEvents(first.operationId!);
    expect(await webhookEvent(ctx, { eventId: old!.eventId, operationId: first.operationId! })).toMatchObject({ result: "acknowledged" });

    // The same eventId, now the API's event for another operation: it is stored, applied and acknowledged.
    const second = await atProvider();
    const { double, stub } = answeredByDouble();
    // Later than the operation's last report, on the sandbox's clock (an earlier test moved it).
    const { now } = (await control("GET", "/clock")) as { now: string };
    double.answer(
      json(200, { operationId: second.operationId, status: "CONFIRMED", updatedAt: new Date(Date.parse(now) + 60_000).toISOString() }),
      new Response(null, { status: 204 }),
    );
    const received = await receiveWebhook(
      stub,
      ctx.webhookToken,
      new Request("http://127.0.0.1/api/webhooks/financing/t", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ operationIdentifier: second.operationId, operationStatus: "CONFIRMED", eventId: old!.eventId }),
      }),
    );
    expect(received).toMatchObject({ status: 200, duplicate: false, process: true });
    expect(await processWebhookEvent(stub, { eventId: old!.eventId, operationId: second.operationId! })).toBe("processed");
    expect(sessionState(await requireSession(ctx.db, second.id))).toBe("confirmed");
    expect(await webhookEvent(ctx, { eventId: old!.eventId, operationId: second.operationId! })).toMatchObject({ result: "acknowledged" });
  });
});
