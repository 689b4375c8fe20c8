/**
 * Graceful shutdown (lib/ops/shutdown.ts) with the checkout's step, on the real processing path
 * (PGlite, a partner API double whose status call is held until the test lets it answer): what is
 * under way finishes when the grace allows it, and is handed back when it does not; nothing new is
 * started once draining; the lease is given up; the database is closed. The signal wiring itself is
 * proven on a running server (e2e/shutdown.spec.ts).
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { leases, webhookEvents } from "@/lib/db/schema";
import { insertSessionAtProvider } from "@/lib/checkout/testing/context";
import type { CheckoutContext } from "@/lib/checkout/session/flow";
import { acquireLease, INSTANCE_ID } from "@/lib/checkout/background/reconciler";
import { processWebhookEvent } from "@/lib/checkout/background/webhooks";
import { startBackgroundWork } from "@/lib/checkout/background/worker";
import { seedDemoPartner } from "@/lib/demo/seed";
import { createFinancingClient } from "@/lib/financing/client";
import { isDraining, resetLifecycle, trackWork } from "@/lib/ops/lifecycle";
import { drainDelayFor, shutdown } from "@/lib/ops/shutdown";
import { checkoutShutdownStep } from "./shutdown";

let database: Database;
let ctx: CheckoutContext;
let release: () => void;
let statusCalls = 0;
let acks = 0;

beforeEach(async () => {
  resetLifecycle();
  statusCalls = 0;
  acks = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  release = open;
  // The status call waits for the gate: the event is "mid-processing" until the test opens it.
  const api: typeof fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const match = /\/operations\/([^/]+)\/status$/.exec(url.pathname);
    if (match) {
      statusCalls += 1;
      await gate;
      return Response.json({ operationId: match[1], status: "CONFIRMED", updatedAt: "2026-11-22T10:00:00Z" });
    }
    acks += 1;
    return Response.json({ acknowledged: true });
  };
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "shutdown_test_partner_secret", appUrl: "http://127.0.0.1" });
  const client = createFinancingClient({ baseUrl: "http://api.double/v1", apiKey: "fk_test_double", fetch: api, sleep: async () => {} });
  ctx = { db: database.db, appUrl: "http://127.0.0.1", webhookToken: "t".repeat(32), today: () => "2026-11-22", clientFor: () => client };
  await insertSessionAtProvider(database.db, "shutdown_1");
  await database.db.insert(webhookEvents).values({ eventId: 1, operationId: "op_shutdown_1", claimedStatus: "CONFIRMED" });
});

afterEach(async () => {
  release();
  resetLifecycle();
  await database.close().catch(() => {});
});

async function eventRow() {
  const [row] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, 1));
  return row!;
}

/** Starts processing the event as the webhook route does, and waits until it is at the API. */
async function midProcessing() {
  const processing = trackWork(() => processWebhookEvent(ctx, { eventId: 1, operationId: "op_shutdown_1" }));
  expect(processing).toBeDefined();
  await expect.poll(() => statusCalls).toBe(1);
  expect((await eventRow()).lockedUntil).not.toBeNull();
  // In an object: an async function returning the promise itself would wait for it.
  return { processing: processing! };
}

describe("shutdown", () => {
  it("lets the event under way finish within the grace, then closes the database", async () => {
    const { processing } = await midProcessing();
    let closed = false;
    let requestGraceMs = 0;
    const stopping = shutdown({
      steps: [checkoutShutdownStep(database.db, startBackgroundWork(ctx, 60_000))],
      graceMs: 10_000,
      closeServers: async (ms) => {
        requestGraceMs = ms;
      },
      closeDatabase: async () => {
        // Closed only after the event was done with.
        expect((await eventRow()).processedAt).not.toBeNull();
        closed = true;
      },
    });
    expect(isDraining()).toBe(true);
    release();
    const report = await stopping;
    expect(await processing).toBe("processed");
    expect(report).toMatchObject({ finished: true, releasedEvents: 0 });
    expect(closed).toBe(true);
    // The requests under way get what is left of the grace (the event took a moment of it), not 5 s.
    expect(requestGraceMs).toBeGreaterThan(5_000);
    expect(requestGraceMs).toBeLessThanOrEqual(10_000);
    const row = await eventRow();
    expect(row.result).toBe("acknowledged");
    expect(acks).toBe(1);
  });

  it("hands back an event it cannot finish in time: unlocked and due at once, not acknowledged", async () => {
    await midProcessing();
    const report = await shutdown({
      steps: [checkoutShutdownStep(database.db, startBackgroundWork(ctx, 60_000))],
      graceMs: 200,
      closeServers: async () => {},
      closeDatabase: async () => {},
    });
    expect(report).toMatchObject({ finished: false, releasedEvents: 1 });
    const row = await eventRow();
    expect(row.processedAt).toBeNull();
    expect(row.lockedUntil).toBeNull();
    expect(row.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(acks).toBe(0);

    // Another instance (a fresh processor here) takes it at once, and it is applied once.
    resetLifecycle();
    release();
    expect(await processWebhookEvent(ctx, { eventId: 1, operationId: "op_shutdown_1" })).toBe("processed");
    expect((await eventRow()).result).toBe("acknowledged");
  });

  it("goes on serving through the drain delay, readiness red, before the servers close and the grace starts", async () => {
    const { processing } = await midProcessing();
    let closedAt = 0;
    let requestGraceMs = 0;
    // The delay ends when the test says so, not after a time the machine's speed could overrun.
    const delays: number[] = [];
    let endDelay = () => {};
    const delayOver = new Promise<void>((resolve) => (endDelay = resolve));
    const stopping = shutdown({
      steps: [checkoutShutdownStep(database.db, startBackgroundWork(ctx, 60_000))],
      drainDelayMs: 400,
      graceMs: 6_000,
      closeServers: async (ms) => {
        closedAt = Date.now();
        requestGraceMs = ms;
      },
      closeDatabase: async () => {},
      sleep: async (ms) => {
        delays.push(ms);
        await delayOver;
      },
    });
    expect(isDraining()).toBe(true);
    // The event under way finishes during the delay; the servers are still open after it.
    release();
    expect(await processing).toBe("processed");
    expect(closedAt).toBe(0);
    expect(trackWork(() => processWebhookEvent(ctx, { eventId: 1, operationId: "op_shutdown_1" }))).toBeUndefined();
    expect(delays).toEqual([400]);
    const delayEndedAt = Date.now();
    endDelay();
    expect(await stopping).toMatchObject({ finished: true, releasedEvents: 0 });
    expect(closedAt).toBeGreaterThanOrEqual(delayEndedAt);
    // The grace counts from the end of the delay: the requests get nearly all of it.
    expect(requestGraceMs).toBeGreaterThan(4_000);
  });

  it("has a drain delay on SIGTERM only: SIGINT is a person's Ctrl-C", () => {
    expect(drainDelayFor("SIGTERM", 10_000)).toBe(10_000);
    expect(drainDelayFor("SIGINT", 10_000)).toBe(0);
  });

  it("starts nothing new once draining, and gives up the reconciler's lease", async () => {
    expect(await acquireLease(database.db, "reconciler", INSTANCE_ID)).toBe(true);
    const report = await shutdown({
      steps: [checkoutShutdownStep(database.db, startBackgroundWork(ctx, 60_000))],
      graceMs: 1_000,
      closeServers: async () => {},
      closeDatabase: async () => {},
    });
    expect(report.releasedLease).toBe(true);
    expect(await database.db.select().from(leases)).toEqual([]);
    // A delivery arriving now is stored by the route but not processed here.
    expect(trackWork(() => processWebhookEvent(ctx, { eventId: 1, operationId: "op_shutdown_1" }))).toBeUndefined();
    expect(statusCalls).toBe(0);
  });
});
