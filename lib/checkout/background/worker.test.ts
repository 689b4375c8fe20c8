/**
 * The webhook pump: events stored by the receiver are processed at once when it is woken (no timer
 * tick), a few at a time (fewer while deliveries are being taken in), each once; nothing new starts
 * once the process is draining.
 */
import { isNull } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { seedDemoPartner } from "@/lib/demo/seed";
import { createFinancingClient } from "@/lib/financing/client";
import { duringIntake, resetLifecycle, startDraining } from "@/lib/ops/lifecycle";
import type { CheckoutContext } from "../session/flow";
import { insertSessionAtProvider } from "../testing/context";
import { createWebhookPump, outageBackoff } from "./worker";

let database: Database;
let ctx: CheckoutContext;
let inFlight = 0;
let maxInFlight = 0;
let statusCalls = 0;

beforeEach(async () => {
  resetLifecycle();
  inFlight = maxInFlight = statusCalls = 0;
  const api: typeof fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const match = /\/operations\/([^/]+)\/status$/.exec(url.pathname);
    if (!match) return Response.json({ acknowledged: true });
    statusCalls += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inFlight -= 1;
    return Response.json({ operationId: match[1], status: "CONFIRMED", updatedAt: "2026-11-22T10:00:00Z" });
  };
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "worker_test_partner_secret_0", appUrl: "http://127.0.0.1" });
  const client = createFinancingClient({ baseUrl: "http://api.double/v1", apiKey: "fk_test_double", fetch: api, sleep: async () => {} });
  ctx = { db: database.db, appUrl: "http://127.0.0.1", webhookToken: "t".repeat(32), today: () => "2026-11-22", clientFor: () => client };
});

afterEach(async () => {
  resetLifecycle();
  await database.close();
});

async function storeEvents(from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    const operationId = await insertSessionAtProvider(database.db, `pump_${i}`);
    await database.db.insert(webhookEvents).values({ eventId: i, operationId, claimedStatus: "CONFIRMED" });
  }
}

const unprocessed = async () => (await database.db.select().from(webhookEvents).where(isNull(webhookEvents.processedAt))).length;

describe("the webhook pump", () => {
  it("processes every due event when woken, several at a time but at most 8, each once", async () => {
    await storeEvents(1, 30);
    const pump = createWebhookPump(ctx);
    pump.wake();
    await pump.idle();
    expect(await unprocessed()).toBe(0);
    expect(statusCalls).toBe(30);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(8);
  });

  it("a wake during a pass makes it look again, so an event stored meanwhile is not left for the timer", async () => {
    await storeEvents(1, 10);
    const pump = createWebhookPump(ctx);
    pump.wake();
    await storeEvents(100, 5);
    pump.wake();
    await pump.idle();
    expect(await unprocessed()).toBe(0);
    expect(statusCalls).toBe(15);
  });

  it("makes way while a delivery is being taken in (at most 2 at once), and is back to full concurrency once none is", async () => {
    await storeEvents(1, 40);
    const pump = createWebhookPump(ctx);
    let releaseIntake!: () => void;
    const intake = duringIntake(() => new Promise<void>((resolve) => (releaseIntake = resolve)));
    pump.wake();
    // Processing goes on during the intake, never stops, but two at a time.
    await vi.waitUntil(() => statusCalls >= 10, { timeout: 10_000 });
    expect(maxInFlight).toBe(2);
    releaseIntake();
    await intake;
    await pump.idle();
    expect(await unprocessed()).toBe(0);
    expect(statusCalls).toBe(40);
    expect(maxInFlight).toBeGreaterThan(2);
    expect(maxInFlight).toBeLessThanOrEqual(8);
  });

  it("starts nothing while the process is draining", async () => {
    await storeEvents(1, 3);
    startDraining();
    const pump = createWebhookPump(ctx);
    pump.wake();
    await pump.idle();
    expect(await unprocessed()).toBe(3);
    expect(statusCalls).toBe(0);
  });
});

describe("the rounds through a database outage", () => {
  const unreachable = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

  it("wait 1, 2, 4… intervals (at most 30 s) while the database is unreachable, and go back to every interval once it answers", () => {
    const backoff = outageBackoff(5_000);
    const skippedAfterEachFailure: number[] = [];
    for (let i = 0; i < 5; i++) {
      backoff.failed(unreachable);
      let skipped = 0;
      while (backoff.waiting()) skipped++;
      skippedAfterEachFailure.push(skipped);
    }
    expect(skippedAfterEachFailure).toEqual([0, 1, 3, 5, 5]);
    backoff.failed(unreachable);
    backoff.succeeded();
    expect(backoff.waiting()).toBe(false);
  });

  it("any other failure does not slow the rounds", () => {
    const backoff = outageBackoff(5_000);
    backoff.failed(new Error("a bug"));
    expect(backoff.waiting()).toBe(false);
  });
});
