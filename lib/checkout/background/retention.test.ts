/**
 * Customers' data retention, with an injected clock: a final session's data is erased once its
 * partner's period has passed since it ended and not before; an unfinished one's once the period
 * has passed since it expired; the partner's period is honoured and cut to the platform's ceiling;
 * two instances running at once erase each session once (one notification each), audited once, as
 * a count.
 */
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import { releaseLease } from "@/lib/db/leases";
import { editorTokenHash } from "../session/customer-editor";
import { getCustomerDraft, saveCustomerData } from "../session/customer-store";
import { BROWSER, customerDraft, storedSession } from "../testing/context";
import { offlineWorld } from "../testing/offline-world";
import { eraseRetainedCustomerData, RETENTION_LEASE, retentionDays } from "./retention";

const world = offlineWorld();
const DAY = 86_400_000;
const T0 = new Date("2026-06-01T00:00:00.000Z");
let count = 0;

/** A session with customer data: ended (CONFIRMED, last changed at T0), or unfinished (no operation, expired at T0). */
async function session(kind: "final" | "unfinished"): Promise<string> {
  count += 1;
  const row = storedSession({
    id: `cs_retain${count}_00000000`,
    reference: `RETAIN-${count}`,
    ...(kind === "final" ? { operationId: `op_retain${count}` } : {}),
  });
  await world.ctx.db.insert(checkoutSessions).values({
    ...row,
    ...(kind === "final" ? { operationStatus: "CONFIRMED" as const } : {}),
    expiresAt: T0,
    updatedAt: T0,
    createdAt: T0,
  });
  await saveCustomerData(world.ctx.db, row.id, customerDraft(), editorTokenHash(BROWSER));
  return row.id;
}

async function run(now: Date, maxDays = 365, holder = "retention-test") {
  const erased = await eraseRetainedCustomerData(world.ctx, { now, maxDays, holder });
  await releaseLease(world.ctx.db, RETENTION_LEASE, holder);
  return erased;
}

const status = async (id: string) => (await getCustomerDraft(world.ctx.db, id))?.status;

async function setPeriod(days: number) {
  await world.ctx.db.update(partners).set({ customerDataRetentionDays: days }).where(eq(partners.id, world.partner.id));
}

describe("customers' data retention", () => {
  it("cuts a partner's period to the ceiling, at least a day", () => {
    expect(retentionDays(90, 365)).toBe(90);
    expect(retentionDays(400, 365)).toBe(365);
    expect(retentionDays(0, 365)).toBe(1);
  });

  it("erases a final session's data once the partner's period has passed since it ended, and not before", async () => {
    await setPeriod(30);
    const id = await session("final");
    expect(await run(new Date(T0.getTime() + 30 * DAY - 1))).toBe(0);
    expect(await status(id)).toBe("present");
    expect(await run(new Date(T0.getTime() + 30 * DAY))).toBe(1);
    expect(await status(id)).toBe("erased");
    const notified = await world.ctx.db
      .select()
      .from(partnerNotifications)
      .where(and(eq(partnerNotifications.sessionId, id), eq(partnerNotifications.state, "customer_data_erased")));
    expect(notified).toHaveLength(1);
    // Kept: the accounting record.
    const [kept] = await world.ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    expect(kept).toMatchObject({ bookingReference: expect.stringMatching(/^RETAIN-/), operationStatus: "CONFIRMED" });
  });

  it("erases an unfinished session's data once the period has passed since it expired", async () => {
    await setPeriod(10);
    const id = await session("unfinished");
    expect(await run(new Date(T0.getTime() + 10 * DAY - 1000))).toBe(0);
    expect(await run(new Date(T0.getTime() + 10 * DAY))).toBe(1);
    expect(await status(id)).toBe("erased");
  });

  it("honours the partner's period, cut to the platform's ceiling", async () => {
    await setPeriod(200);
    const id = await session("final");
    expect(await run(new Date(T0.getTime() + 100 * DAY))).toBe(0);
    expect(await run(new Date(T0.getTime() + 100 * DAY), 100)).toBe(1);
    expect(await status(id)).toBe("erased");
  });

  it("erases each session once when two instances run at once, and audits the run as a count", async () => {
    await setPeriod(5);
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => session("final")));
    const now = new Date(T0.getTime() + 5 * DAY);
    const results = await Promise.all(["instance-a", "instance-b"].map((holder) => eraseRetainedCustomerData(world.ctx, { now, holder })));
    expect(results.filter((result) => result === null)).toHaveLength(1);
    expect(results.find((result) => result !== null)).toBe(5);
    for (const holder of ["instance-a", "instance-b"]) await releaseLease(world.ctx.db, RETENTION_LEASE, holder);
    // The other instance, later: nothing left.
    expect(await run(now, 365, "instance-b")).toBe(0);
    const notified = await world.ctx.db
      .select()
      .from(partnerNotifications)
      .where(and(inArray(partnerNotifications.sessionId, ids), eq(partnerNotifications.state, "customer_data_erased")));
    expect(notified).toHaveLength(5);
    const audited = await world.ctx.db.select().from(auditEvents).where(eq(auditEvents.kind, "customer_data_retention_erased"));
    expect(audited.at(-1)).toMatchObject({ result: "ok", details: { sessions: 5, partners: 1 } });
    expect(JSON.stringify(audited)).not.toMatch(/cs_retain/);
  });
});
