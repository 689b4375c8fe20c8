/**
 * A partner notification leaves on the change that causes it, not on a timer: the workers' rounds
 * are an hour apart here, so only the outbox's wake-up can send it. On PGlite (in-process), on
 * PostgreSQL, and across two instances sharing PostgreSQL (the change made on one wakes the other's
 * delivery, by LISTEN/NOTIFY), each notification still delivered exactly once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import { onSignal } from "@/lib/db/signals";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { resetLifecycle } from "@/lib/ops/lifecycle";
import { OUTBOX_CHANNEL } from "../session/outbox";
import { recordOperationStatus } from "../session/session-status";
import type { CheckoutContext } from "../session/flow";
import { insertSessionAtProvider, storedSession, testContext } from "../testing/context";
import { newSigningSecret } from "./notification-send";
import { createNotificationPump } from "./notifications";
import { startBackgroundWork, type BackgroundWork } from "./worker";

/** The rounds' interval: no round comes within a test. */
const AN_HOUR = 3_600_000;
/** A stated bound, generous for a loaded machine: a wake-up that works answers in well under a second. */
const BOUND_MS = 60_000;

/** The partner's backend: answers 200, and lets a test wait for the n-th notification. */
interface PartnerBackend {
  appUrl: string;
  received: string[];
  reached(count: number): Promise<void>;
}

const servers: Server[] = [];

async function partnerBackend(): Promise<PartnerBackend> {
  const received: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    request.resume();
    received.push(String(request.headers["webhook-id"]));
    response.writeHead(200).end();
    for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    appUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    reached(count) {
      if (received.length >= count) return Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        new Promise<void>((resolve) => waiters.push({ count, resolve })),
        new Promise<void>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${received.length} of ${count} notifications within ${BOUND_MS / 1000} s, with no round due`)),
            BOUND_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    },
  };
}

interface Instance {
  ctx: CheckoutContext;
  database: Database;
  worker?: BackgroundWork;
}

const opened: Instance[] = [];

async function instance(backend: PartnerBackend, databaseUrl?: string, withWorker = true): Promise<Instance> {
  const { ctx, database } = await testContext("http://127.0.0.1:9/sandbox/v1", {
    appUrl: backend.appUrl,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  const started: Instance = { ctx, database, ...(withWorker ? { worker: startBackgroundWork(ctx, AN_HOUR) } : {}) };
  opened.push(started);
  // The start's own look for due notifications is over before the test's change is made.
  await started.worker?.idle();
  return started;
}

let counter = 0;

/** A session at the provider, then confirmed: the change that queues its `confirmed` notification. */
async function confirmSession(on: Instance): Promise<void> {
  counter += 1;
  const name = `wake_${process.pid}_${counter}`;
  const operationId = await insertSessionAtProvider(on.database.db, name);
  const changed = await recordOperationStatus(
    on.ctx.db,
    { sessionId: `cs_${name}_0000000000`, operationId },
    { status: "CONFIRMED", updatedAt: "2026-11-22T10:00:00Z" },
    "webhook",
  );
  expect(changed).toBe(true);
}

/** Every notification in the outbox: delivered, at the first attempt, and received once. */
async function expectDeliveredOnce(on: Instance, backend: PartnerBackend, count: number): Promise<void> {
  const rows = await on.database.db.select().from(partnerNotifications);
  expect(rows).toHaveLength(count);
  for (const row of rows) expect({ delivered: row.deliveredAt !== null, attempts: row.attempts }).toEqual({ delivered: true, attempts: 1 });
  expect([...backend.received].sort()).toEqual(rows.map((row) => row.id).sort());
}

/** One instance, its rounds an hour apart: a change it makes is sent by the wake-up, once. */
async function sentByItsOwnInstance(databaseUrl?: string): Promise<void> {
  const backend = await partnerBackend();
  const app = await instance(backend, databaseUrl);
  // On PostgreSQL the database is the suite's: what an earlier test left is not this one's.
  await app.database.db.delete(partnerNotifications);
  await confirmSession(app);
  await backend.reached(1);
  await app.worker!.idle();
  await expectDeliveredOnce(app, backend, 1);
}

afterEach(async () => {
  for (const { worker } of opened) await worker?.stop();
  for (const { database } of opened.splice(0)) await database.close();
  resetLifecycle();
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("on PGlite, a notification leaves on its change", () => {
  it("is sent by the in-process wake-up, with the next round an hour away, once", () => sentByItsOwnInstance());

  it("keeps sending while work comes: many changes at once, each sent, once", async () => {
    const backend = await partnerBackend();
    const app = await instance(backend);
    await Promise.all(Array.from({ length: 60 }, () => confirmSession(app)));
    await backend.reached(60);
    await app.worker!.idle();
    await expectDeliveredOnce(app, backend, 60);
  });
});

/**
 * A partner whose endpoint's name resolves only when the test says (`release`): its notification's
 * attempt is held, however long the test takes, with no timeout of its own in play.
 */
async function heldPartner(on: Instance, backend: PartnerBackend) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached = () => {};
  const attempting = new Promise<void>((resolve) => (reached = resolve));
  const port = new URL(backend.appUrl).port;
  await on.database.db.insert(partners).values({
    id: "partner_held",
    name: "Held",
    allowedOrigins: ["http://127.0.0.1:3999"],
    notificationUrl: `http://held.partner.test:${port}/notifications`,
    signingSecret: newSigningSecret(),
  });
  await on.database.db
    .insert(checkoutSessions)
    .values(storedSession({ id: "cs_held_0000000000", reference: "REF-held", partnerId: "partner_held" }));
  await on.database.db.insert(partnerNotifications).values({
    id: "msg_held",
    sessionId: "cs_held_0000000000",
    partnerId: "partner_held",
    partnerSeq: 1,
    state: "confirmed",
    payload: { type: "checkout.session.confirmed" } as never,
  });
  const resolve = async (host: string) => {
    if (host === "held.partner.test") {
      reached();
      await released;
    }
    return [{ address: "127.0.0.1", family: 4 }];
  };
  return { resolve, attempting, release };
}

describe("on PGlite, one partner's held delivery holds no other's", () => {
  it("a change for another partner is sent while the first one's attempt is still held", async () => {
    const backend = await partnerBackend();
    const app = await instance(backend, undefined, false);
    const held = await heldPartner(app, backend);
    const pump = createNotificationPump(app.ctx, { resolve: held.resolve });
    const stopListening = await onSignal(app.ctx.db, OUTBOX_CHANNEL, () => pump.wake());
    pump.wake();
    await held.attempting;
    await confirmSession(app);
    await backend.reached(1);
    expect(backend.received).not.toContain("msg_held");
    held.release();
    await backend.reached(2);
    await pump.idle();
    await stopListening();
    expect(backend.received.filter((id) => id === "msg_held")).toHaveLength(1);
  });

  it("with every lane taken, the partner left out is served as soon as one ends", async () => {
    const backend = await partnerBackend();
    const app = await instance(backend, undefined, false);
    const held = await heldPartner(app, backend);
    const pump = createNotificationPump(app.ctx, { resolve: held.resolve, concurrency: 1 });
    const stopListening = await onSignal(app.ctx.db, OUTBOX_CHANNEL, () => pump.wake());
    pump.wake();
    await held.attempting;
    await confirmSession(app);
    held.release();
    await backend.reached(2);
    await pump.idle();
    await stopListening();
    expect([...backend.received].sort()).toEqual(
      (await app.database.db.select({ id: partnerNotifications.id }).from(partnerNotifications)).map((row) => row.id).sort(),
    );
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, a notification leaves on its change, on any instance", () => {
  const server = throwawayDatabase("notification_wakeup");

  beforeAll(() => {
    resetLifecycle();
  });

  it("is sent by the instance that made the change, with the next round an hour away, once", () => sentByItsOwnInstance(server.url));

  it("a change made on one instance wakes another's delivery (LISTEN/NOTIFY)", async () => {
    const backend = await partnerBackend();
    // The instance that makes the change runs no worker: only the other one can send.
    const writer = await instance(backend, server.url, false);
    await writer.database.db.delete(partnerNotifications);
    const sender = await instance(backend, server.url);
    await confirmSession(writer);
    await backend.reached(1);
    await sender.worker!.idle();
    await expectDeliveredOnce(sender, backend, 1);
  });

  it("with two instances both sending, changes made on either are each sent once", async () => {
    const backend = await partnerBackend();
    const one = await instance(backend, server.url);
    await one.database.db.delete(partnerNotifications);
    const two = await instance(backend, server.url);
    await Promise.all(Array.from({ length: 40 }, (_, i) => confirmSession(i % 2 === 0 ? one : two)));
    await backend.reached(40);
    await Promise.all([one.worker!.idle(), two.worker!.idle()]);
    await expectDeliveredOnce(one, backend, 40);
  });
});
