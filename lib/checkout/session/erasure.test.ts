import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { auditEvents, checkoutSessions, partnerNotifications } from "@/lib/db/schema";
import { BROWSER, customerDraft, storedSession } from "../testing/context";
import { offlineWorld } from "../testing/offline-world";
import { editorTokenHash } from "./customer-editor";
import { getCustomerDraft, saveCustomerData } from "./customer-store";
import { eraseSessionCustomerData } from "./erasure";

const world = offlineWorld();
const NOW = new Date("2026-12-01T12:00:00.000Z");
let count = 0;

/** A session of the demo partner whose operation is in `status`, with the customer's data. */
async function sessionWithData(status: "CONFIRMED" | "CLIENT_REQUESTED" = "CONFIRMED"): Promise<string> {
  count += 1;
  const row = storedSession({ id: `cs_erase${count}_000000000`, reference: `ERASE-${count}`, operationId: `op_erase${count}` });
  await world.ctx.db.insert(checkoutSessions).values({ ...row, operationStatus: status });
  await saveCustomerData(world.ctx.db, row.id, customerDraft(), editorTokenHash(BROWSER));
  return row.id;
}

async function notificationsOf(sessionId: string) {
  return world.ctx.db
    .select()
    .from(partnerNotifications)
    .where(and(eq(partnerNotifications.sessionId, sessionId), eq(partnerNotifications.state, "customer_data_erased")));
}

describe("erasing a session's customer data", () => {
  it("erases, notifies the partner once with no personal data, audits who asked, and answers a repeat as such", async () => {
    const sessionId = await sessionWithData();
    const by = { kind: "staff", staffId: "staff_1", staffName: "Ana Staff" } as const;
    const first = await eraseSessionCustomerData(world.ctx.db, { sessionId, partnerId: world.partner.id, by, now: NOW });
    expect(first).toMatchObject({ outcome: "erased", erasedAt: NOW });
    expect(await getCustomerDraft(world.ctx.db, sessionId)).toMatchObject({ status: "erased", erasedAt: NOW });

    const [notification, ...more] = await notificationsOf(sessionId);
    expect(more).toEqual([]);
    expect(notification!.payload).toMatchObject({
      type: "checkout.session.customer_data_erased",
      data: {
        id: sessionId,
        bookingReference: first.session.bookingReference,
        state: "confirmed",
        customerDataErasedAt: NOW.toISOString(),
      },
    });
    expect(JSON.stringify(notification!.payload)).not.toContain(customerDraft().email);

    const audit = await world.ctx.db.select().from(auditEvents).where(eq(auditEvents.kind, "customer_data_erased"));
    expect(audit.filter((row) => row.details?.sessionId === sessionId)).toEqual([
      expect.objectContaining({ staffUserId: "staff_1", staffName: "Ana Staff", result: "ok", partnerId: world.partner.id }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(customerDraft().email);

    const again = await eraseSessionCustomerData(world.ctx.db, {
      sessionId,
      partnerId: world.partner.id,
      by: { kind: "api", secretName: "backend" },
      now: new Date(NOW.getTime() + 60_000),
    });
    expect(again).toMatchObject({ outcome: "already_erased", erasedAt: NOW });
    expect(await notificationsOf(sessionId)).toHaveLength(1);
  });

  it("refuses while the customer is at the provider, saying when to try again, and keeps the data", async () => {
    const sessionId = await sessionWithData("CLIENT_REQUESTED");
    const refused = await eraseSessionCustomerData(world.ctx.db, {
      sessionId,
      partnerId: world.partner.id,
      by: { kind: "api", secretName: "backend" },
      now: NOW,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "customer_data_in_use", status: 409, details: { retryAfterS: 900, state: "pending" } });
    expect(await getCustomerDraft(world.ctx.db, sessionId)).toMatchObject({ status: "present" });
    expect(await notificationsOf(sessionId)).toEqual([]);
  });

  it("does not find another partner's session", async () => {
    const sessionId = await sessionWithData();
    await expect(
      eraseSessionCustomerData(world.ctx.db, { sessionId, partnerId: "another_partner", by: { kind: "retention" }, now: NOW }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await getCustomerDraft(world.ctx.db, sessionId)).toMatchObject({ status: "present" });
  });

  it("marks a session that never had customer data as erased, once", async () => {
    count += 1;
    const row = storedSession({ id: `cs_erase${count}_000000000`, reference: `ERASE-${count}`, operationId: `op_erase${count}` });
    await world.ctx.db.insert(checkoutSessions).values({ ...row, operationStatus: "REFUSED" });
    const request = { sessionId: row.id, partnerId: world.partner.id, by: { kind: "retention" } as const, now: NOW };
    expect(await eraseSessionCustomerData(world.ctx.db, request)).toMatchObject({ outcome: "erased" });
    expect(await eraseSessionCustomerData(world.ctx.db, request)).toMatchObject({ outcome: "already_erased" });
    expect(await getCustomerDraft(world.ctx.db, row.id)).toMatchObject({ status: "erased" });
    expect(await notificationsOf(row.id)).toHaveLength(1);
  });
});
