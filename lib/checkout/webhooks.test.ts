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
import { chooseOffer, loadOffers, submitCustomer, type CheckoutContext } from "./flow";
import type { Partner } from "@/lib/partners/partners";
import { createSession, requireSession, sessionState } from "./sessions";
import { customerDraft, sessionInput, testContext } from "./testing/context";
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
          if (result.process && processingEnabled) processing.push(processWebhookEvent(ctx, result.eventId));
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
async function atProvider(email?: string) {
  const { session } = await createSession(ctx.db, partner, sessionInput({}, receiverOrigin));
  await submitCustomer(ctx, session.id, customerDraft(email));
  const withOperation = await requireSession(ctx.db, session.id);
  const view = await loadOffers(ctx, withOperation);
  if (view.kind !== "offers") throw new Error("expected offers");
  await chooseOffer(ctx, session.id, view.offers[0]!.id);
  return requireSession(ctx.db, session.id);
}

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
    expect(await webhookEvent(ctx, 900001)).toBeUndefined();
  });

  it("an oversized or malformed body is refused and stores nothing", async () => {
    const big = JSON.stringify({ operationIdentifier: "x".repeat(WEBHOOK_BODY_MAX_BYTES), operationStatus: "CONFIRMED", eventId: 900002 });
    expect((await deliver(big)).status).toBe(413);
    expect((await deliver("{not json")).status).toBe(400);
    expect((await deliver({ operationIdentifier: "op_x", operationStatus: "PENDING", eventId: 900003 })).status).toBe(400);
    expect((await deliver({ operationIdentifier: "op_x", operationStatus: "CONFIRMED", eventId: "x" })).status).toBe(400);
    expect(await webhookEvent(ctx, 900002)).toBeUndefined();
    expect(await webhookEvent(ctx, 900003)).toBeUndefined();
  });

  it("an unknown operation is rejected, without acknowledging anything", async () => {
    processingEnabled = true;
    expect((await deliver({ operationIdentifier: "op_not_ours", operationStatus: "CONFIRMED", eventId: 900004 })).status).toBe(200);
    await settle();
    expect(await webhookEvent(ctx, 900004)).toMatchObject({ result: "rejected" });
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
    expect(await webhookEvent(ctx, event!.eventId)).toMatchObject({ result: "acknowledged", deliveries: 1 });
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
    expect(await webhookEvent(ctx, event!.eventId)).toMatchObject({ processedAt: null, lastError: expect.stringContaining("503") });
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
    expect(await webhookEvent(ctx, event!.eventId)).toMatchObject({ result: "status_mismatch" });
    // The sandbox redelivers the genuine event: it is processed again and acknowledged.
    await control("POST", "/webhooks/redeliver");
    await settle();
    expect(await webhookEvent(ctx, event!.eventId)).toMatchObject({ result: "acknowledged", claimedStatus: "CONFIRMED" });
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
    expect(await webhookEvent(ctx, confirmed!.eventId)).toMatchObject({ result: "superseded" });
  });
});

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
    const double = createFetchDouble("/sandbox/v1");
    const stub: CheckoutContext = {
      ...ctx,
      clientFor: () =>
        createFinancingClient({ baseUrl: sandbox.baseUrl, apiKey: KEY, fetch: double.fetch, sleep: async () => {}, maxAttempts: 1 }),
    };
    double.answer(
      json(200, { operationId: session.operationId, status: "CONFIRMED", updatedAt: new Date().toISOString() }, { ETag: '"CONFIRMED-1"' }),
      json(status, { errorCode: code, message: code }),
    );
    const eventId = 800000 + cases.findIndex((c) => c[0] === code);
    await ctx.db.insert(webhookEvents).values({ eventId, operationId: session.operationId!, claimedStatus: "CONFIRMED" });
    expect(await processWebhookEvent(stub, eventId)).toBe("processed");
    expect(await webhookEvent(ctx, eventId)).toMatchObject({ processedAt: expect.any(Date), result });
    expect(double.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /operations/${session.operationId}/status`,
      "PUT /operations/webhook-events/ack",
    ]);
  });

  it("any other ack failure (a 500) leaves the event to be retried", async () => {
    const session = await atProvider();
    const double = createFetchDouble("/sandbox/v1");
    const stub: CheckoutContext = {
      ...ctx,
      clientFor: () =>
        createFinancingClient({ baseUrl: sandbox.baseUrl, apiKey: KEY, fetch: double.fetch, sleep: async () => {}, maxAttempts: 1 }),
    };
    double.answer(
      json(200, { operationId: session.operationId, status: "CONFIRMED", updatedAt: new Date().toISOString() }),
      json(500, { errorCode: "INTERNAL_ERROR", message: "boom" }),
    );
    await ctx.db.insert(webhookEvents).values({ eventId: 800100, operationId: session.operationId!, claimedStatus: "CONFIRMED" });
    expect(await processWebhookEvent(stub, 800100)).toBe("retry");
    const row = await webhookEvent(ctx, 800100);
    expect(row).toMatchObject({ processedAt: null, lockedUntil: null, lastError: expect.stringContaining("INTERNAL_ERROR") });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});
