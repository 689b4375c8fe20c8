/**
 * Partner notifications against real local HTTP servers: one partner's hanging endpoint delays
 * only that partner; each partner's notifications still go in order; a refused destination is
 * never connected to and is retried like any failure.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import type { CheckoutContext } from "../session/flow";
import { newSigningSecret } from "./notification-send";
import { createNotificationPump, deliverDueNotifications } from "./notifications";
import { storedSession, testContext } from "../testing/context";

let database: Database;
let ctx: CheckoutContext;
const servers: Server[] = [];

interface Endpoint {
  url: string;
  received: { id: string; at: number }[];
}

/** A partner backend: answers 200 at once, or never (`hang`). */
async function endpoint(hang: boolean): Promise<Endpoint> {
  const received: Endpoint["received"] = [];
  const server = createServer((request, response) => {
    request.resume();
    received.push({ id: String(request.headers["webhook-id"]), at: Date.now() });
    if (!hang) response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`, received };
}

let sessionCounter = 0;
async function partnerWith(id: string, notificationUrl: string): Promise<void> {
  await ctx.db.insert(partners).values({
    id,
    name: id,
    allowedOrigins: ["http://127.0.0.1:3999"],
    notificationUrl,
    signingSecret: newSigningSecret(),
  });
}

/** A notification due now, for a session of this partner; created in order. */
async function notification(partnerId: string, createdAt: Date): Promise<string> {
  sessionCounter++;
  const sessionId = `cs_note_${sessionCounter}`;
  await ctx.db
    .insert(checkoutSessions)
    .values(storedSession({ id: sessionId, reference: `BK-NOTE-${sessionCounter}`, partnerId, returnUrl: "http://127.0.0.1:3999/" }));
  const id = `msg_note_${sessionCounter}`;
  await ctx.db.insert(partnerNotifications).values({
    id,
    sessionId,
    partnerId,
    partnerSeq: sessionCounter,
    state: "confirmed",
    payload: { type: "checkout.session.confirmed" } as never,
    createdAt,
    nextAttemptAt: createdAt,
  });
  return id;
}

beforeAll(async () => {
  ({ ctx, database } = await testContext("http://127.0.0.1:9/sandbox/v1"));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await database?.close();
});

describe("partner notifications are sent per partner, concurrently", () => {
  it("a partner endpoint that hangs does not delay another partner's delivery, and each partner's go in order", async () => {
    const slow = await endpoint(true);
    const fast = await endpoint(false);
    await partnerWith("partner_x_hangs", slow.url);
    await partnerWith("partner_y", fast.url);
    const t0 = new Date(Date.now() - 60_000);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    // X's are older: with one delivery at a time, Y would wait for X's two timeouts.
    const x1 = await notification("partner_x_hangs", at(0));
    const x2 = await notification("partner_x_hangs", at(1));
    const y1 = await notification("partner_y", at(2));
    const y2 = await notification("partner_y", at(3));

    const started = Date.now();
    const run = deliverDueNotifications(ctx);
    // Y is told well before X's first attempt could have timed out (5 s).
    await expect.poll(() => fast.received.length, { timeout: 4_000, interval: 20 }).toBe(2);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(fast.received.map((r) => r.id)).toEqual([y1, y2]);
    expect(slow.received.map((r) => r.id)).toEqual([x1]);

    expect(await run).toBe(2);
    // X's first timed out; its second was tried after it, in order, and timed out too.
    expect(slow.received.map((r) => r.id)).toEqual([x1, x2]);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.partnerId, "partner_x_hangs"));
    expect(rows.map((row) => ({ delivered: row.deliveredAt !== null, attempts: row.attempts }))).toEqual([
      { delivered: false, attempts: 1 },
      { delivered: false, attempts: 1 },
    ]);
    await ctx.db.delete(partnerNotifications).where(eq(partnerNotifications.partnerId, "partner_x_hangs"));
  }, 20_000);

  it("sends a partner's notifications in its event feed's order, not in the order their transactions began", async () => {
    const endpointZ = await endpoint(false);
    await partnerWith("partner_z", endpointZ.url);
    const t0 = new Date(Date.now() - 60_000);
    // Two state changes committed at once: the one whose transaction began later took the earlier feed position.
    const first = await notification("partner_z", new Date(t0.getTime() + 5));
    const second = await notification("partner_z", t0);
    expect(await deliverDueNotifications(ctx)).toBe(2);
    expect(endpointZ.received.map((r) => r.id)).toEqual([first, second]);
  });

  it("sends a notification committed while a delivery pass runs before the later ones, though its transaction began after the pass", async () => {
    const endpointW = await endpoint(false);
    await partnerWith("partner_w", endpointW.url);
    const passStart = new Date();
    // Its transaction began after the pass (on the database's clock), and took the earlier feed position.
    const began = await notification("partner_w", new Date(passStart.getTime() + 30_000));
    const later = await notification("partner_w", new Date(passStart.getTime() - 30_000));
    expect(await deliverDueNotifications(ctx, { now: passStart })).toBe(2);
    expect(endpointW.received.map((r) => r.id)).toEqual([began, later]);
  });

  it("sends a partner's many notifications, claimed a few at a time, all in its feed's order", async () => {
    const endpointM = await endpoint(false);
    await partnerWith("partner_many", endpointM.url);
    const t0 = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await notification("partner_many", new Date(t0 + i)));
    expect(await deliverDueNotifications(ctx)).toBe(25);
    expect(endpointM.received.map((r) => r.id)).toEqual(ids);
  });

  it("gives back what a stopping lane had claimed and not sent: unlocked, the attempt not counted, sent by the next one", async () => {
    const endpointD = await endpoint(false);
    await partnerWith("partner_drain", endpointD.url);
    const t0 = Date.now() - 60_000;
    const ids = [await notification("partner_drain", new Date(t0)), await notification("partner_drain", new Date(t0 + 1))];
    ids.push(await notification("partner_drain", new Date(t0 + 2)));
    // The process starts draining after the first attempt: the worker's tracker then answers undefined.
    let allowed = 1;
    const pump = createNotificationPump(ctx, { environment: "sandbox", track: (attempt) => (allowed-- > 0 ? attempt() : undefined) });
    pump.wake();
    await pump.idle();
    expect(endpointD.received.map((r) => r.id)).toEqual([ids[0]]);
    const rows = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.partnerId, "partner_drain"));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect([ids[1], ids[2]].map((id) => byId.get(id!))).toMatchObject([
      { deliveredAt: null, lockedUntil: null, attempts: 0 },
      { deliveredAt: null, lockedUntil: null, attempts: 0 },
    ]);
    expect(await deliverDueNotifications(ctx)).toBe(2);
    expect(endpointD.received.map((r) => r.id)).toEqual(ids);
  });

  it("leaves a partner's notifications alone while another sender holds one of them: one sender per partner, in order", async () => {
    const endpointH = await endpoint(false);
    await partnerWith("partner_held", endpointH.url);
    const t0 = Date.now() - 60_000;
    const first = await notification("partner_held", new Date(t0));
    const second = await notification("partner_held", new Date(t0 + 1));
    // Another instance has claimed the first and is sending it.
    await ctx.db
      .update(partnerNotifications)
      .set({ lockedUntil: new Date(Date.now() + 60_000), attempts: 1 })
      .where(eq(partnerNotifications.id, first));
    expect(await deliverDueNotifications(ctx)).toBe(0);
    expect(endpointH.received).toEqual([]);
    // Its claim has run out (that instance stopped): both go, in order.
    expect(await deliverDueNotifications(ctx, { now: new Date(Date.now() + 61_000) })).toBe(2);
    expect(endpointH.received.map((r) => r.id)).toEqual([first, second]);
  });

  it("in production a plain-http or loopback notification URL is refused, never connected to, and retried later", async () => {
    const local = await endpoint(false);
    await partnerWith("partner_loopback", local.url);
    const id = await notification("partner_loopback", new Date(Date.now() - 1_000));
    expect(await deliverDueNotifications(ctx, { environment: "production" })).toBe(0);
    expect(local.received).toEqual([]);
    const [row] = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.id, id));
    expect(row).toMatchObject({ deliveredAt: null, attempts: 1, lastError: expect.stringContaining("destination refused") });

    // The same URL on the sandbox (where the e2e partner site is on 127.0.0.1): delivered.
    expect(await deliverDueNotifications(ctx, { environment: "sandbox", now: new Date(Date.now() + 60_000) })).toBe(1);
    expect(local.received.map((r) => r.id)).toEqual([id]);
  });
});
