import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { eraseCustomerData } from "@/lib/checkout/session/customer-store";
import { createSession } from "@/lib/checkout/session/sessions";
import { customerDraft, sessionInput } from "@/lib/checkout/testing/context";
import { offlineWorld } from "@/lib/checkout/testing/offline-world";
import { auditEvents, checkoutSessions, customerData, partners } from "@/lib/db/schema";
import { partnerById, type Partner } from "@/lib/partners/partners";
import {
  describeSessions,
  eraseCustomerSessions,
  exportCustomerData,
  exportSessions,
  findCustomerSessions,
  partnerSessionsOfCustomer,
  type DataRequestActor,
} from "./data-requests";

/*
 * A customer's data requests as the partner's staff answer them: found within the partner only,
 * exported whole (erased and unavailable data said as such), refused without the permission, and
 * audited without the customer's data.
 */

const world = offlineWorld();
const RIVAL_ID = "rival-partner";
let rival: Partner;

const DOCUMENT = "12345678Z";

function staffOf(partnerId: string, grant: { role?: "admin" | "agent"; canDataRequests?: boolean } = {}): DataRequestActor {
  return {
    db: world.ctx.db,
    partner: { id: partnerId },
    user: {
      id: `staff_${partnerId}`,
      name: "Clara Díaz",
      role: grant.role ?? "admin",
      canRefund: false,
      canDataRequests: grant.canDataRequests ?? true,
    },
  };
}

async function sessionOf(partner: Partner, email: string, documentId = DOCUMENT): Promise<string> {
  const { session } = await createSession(world.ctx.db, partner, sessionInput({ customer: { ...customerDraft(email), documentId } }));
  return session.id;
}

async function auditRows(partnerId: string) {
  return world.ctx.db.select().from(auditEvents).where(eq(auditEvents.partnerId, partnerId));
}

beforeAll(async () => {
  await world.ctx.db.insert(partners).values({ id: RIVAL_ID, name: "Rival Viajes", allowedOrigins: ["http://127.0.0.1:3999"] });
  rival = (await partnerById(world.ctx.db, RIVAL_ID))!;
});

describe("a customer's data requests", () => {
  it("finds the customer's sessions of the staff member's partner only, however the document number is written", async () => {
    const own = await sessionOf(world.partner, "shared@example.com", "87654321X");
    const theirs = await sessionOf(rival, "shared@example.com", "87654321X");

    const found = await findCustomerSessions(staffOf(world.partner.id), { by: "document", value: " 8765-4321 x " });
    expect(found.ok && found.sessions.map((s) => s.sessionId)).toEqual([own]);

    // The other partner's staff, searching the same customer, see their own session only.
    const rivalFound = await findCustomerSessions(staffOf(RIVAL_ID), { by: "email", value: "SHARED@example.com" });
    expect(rivalFound.ok && rivalFound.sessions.map((s) => s.sessionId)).toEqual([theirs]);

    // An attacker of the other partner naming this partner's session id gets nothing of it.
    expect(await describeSessions(world.ctx.db, RIVAL_ID, [own], new Date())).toEqual([]);
    expect((await exportSessions(world.ctx.db, RIVAL_ID, [own], new Date())).sessions).toEqual([]);
  });

  it("says which fields erasing would empty and whether the session can be erased now", async () => {
    const id = await sessionOf(world.partner, "fields@example.com", "11111111H");
    const found = await findCustomerSessions(staffOf(world.partner.id), { by: "email", value: "fields@example.com" });
    if (!found.ok) throw new Error("expected sessions");
    const [session] = found.sessions;
    // Open: the customer may still send their data, so not yet.
    expect(session).toMatchObject({ sessionId: id, state: "open", customerData: "present", erasable: { now: false } });
    expect(session!.fields).toEqual(expect.arrayContaining(["firstName", "email", "documentId", "phone"]));
  });

  it("exports the booking, amounts, states and dates with the customer's data; erased and unavailable data said as such", async () => {
    const present = await sessionOf(world.partner, "export@example.com", "22222222J");
    const erased = await sessionOf(world.partner, "export@example.com", "22222222J");
    const unavailable = await sessionOf(world.partner, "export@example.com", "22222222J");
    const now = new Date();
    // Sealed for another row: no key opens it here.
    const [copied] = await world.ctx.db.select({ data: customerData.data }).from(customerData).where(eq(customerData.sessionId, present));
    await world.ctx.db.update(customerData).set({ data: copied!.data }).where(eq(customerData.sessionId, unavailable));

    const ids = await partnerSessionsOfCustomer(world.ctx.db, world.partner.id, { by: "document", value: "22222222j" });
    expect(ids.sort()).toEqual([present, erased, unavailable].sort());
    // Erased after it was found: the export says so, and does not fail.
    await eraseCustomerData(world.ctx.db, erased, now);
    const exported = await exportSessions(world.ctx.db, world.partner.id, ids, now);

    const byId = new Map(exported.sessions.map((s) => [s.sessionId, s]));
    expect(byId.get(present)).toMatchObject({
      state: "open",
      final: false,
      booking: { packageName: "Lisboa, 4 noches", travellers: 2, totalPrice: { amount: 1234.5, currency: "EUR" } },
      chosenPlan: null,
      operation: null,
      customerData: { status: "present", data: { email: "export@example.com", documentId: "22222222J" } },
    });
    expect(byId.get(present)!.bookingReference).toMatch(/^BK-/);
    expect(byId.get(erased)!.customerData).toEqual({ status: "erased", erasedAt: now.toISOString() });
    expect(byId.get(unavailable)!.customerData).toEqual({ status: "unavailable" });
  });

  it("audits an export with who and how many sessions, never the customer's data or what was searched", async () => {
    await sessionOf(world.partner, "audited@example.com", "33333333P");
    const result = await exportCustomerData(staffOf(world.partner.id), { by: "email", value: "audited@example.com" }, "json", {
      ip: "203.0.113.9",
    });
    expect(result.ok && result.export.sessions).toHaveLength(1);

    const rows = (await auditRows(world.partner.id)).filter((row) => row.kind === "customer_data_exported");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ result: "ok", staffUserId: `staff_${world.partner.id}`, ip: "203.0.113.9" });
    expect(rows[0]!.details).toEqual({ sessions: 1, format: "json", by: "email" });
    const written = JSON.stringify(rows[0]);
    for (const personal of ["audited@example.com", "33333333P", "Ana", "García"]) expect(written).not.toContain(personal);
  });

  it("refuses, and audits the refusal, without the permission: an admin not granted it, an agent even with the flag", async () => {
    await sessionOf(world.partner, "refused@example.com", "44444444A");
    const query = { by: "email", value: "refused@example.com" } as const;
    for (const actor of [
      staffOf(world.partner.id, { canDataRequests: false }),
      staffOf(world.partner.id, { role: "agent", canDataRequests: true }),
    ]) {
      expect(await findCustomerSessions(actor, query)).toEqual({ ok: false, reason: "forbidden" });
      expect(await exportCustomerData(actor, query, "page")).toEqual({ ok: false, reason: "forbidden" });
      expect(await eraseCustomerSessions(actor, ["cs_any"])).toEqual({ ok: false, reason: "forbidden" });
    }
    const refusals = (await auditRows(world.partner.id)).filter((row) => row.kind === "permission_refused");
    expect(refusals.length).toBeGreaterThanOrEqual(6);
    expect(refusals.every((row) => (row.details as { permission?: string }).permission === "data-requests")).toBe(true);
    expect(JSON.stringify(refusals)).not.toContain("refused@example.com");
  });

  it("erases a finished session's data through the one erasure; one still in use is refused with when to retry", async () => {
    const finished = await sessionOf(world.partner, "erase@example.com", "66666666Q");
    const open = await sessionOf(world.partner, "erase@example.com", "66666666Q");
    await world.ctx.db.update(checkoutSessions).set({ cancelledAt: new Date() }).where(eq(checkoutSessions.id, finished));
    const rivalStaff = staffOf(RIVAL_ID);

    // Another partner's staff naming these sessions erase nothing.
    expect(await eraseCustomerSessions(rivalStaff, [finished, open])).toEqual({ ok: true, erased: [], refused: [] });
    const answer = await eraseCustomerSessions(staffOf(world.partner.id), [finished, open]);
    if (!answer.ok) throw new Error("expected an answer");
    expect(answer.erased.map((s) => s.sessionId)).toEqual([finished]);
    expect(answer.refused.map((s) => s.sessionId)).toEqual([open]);
    expect(answer.refused[0]!.retryAfter.getTime()).toBeGreaterThan(Date.now());

    // Erased: no longer found; the export of the session says erased.
    expect(await partnerSessionsOfCustomer(world.ctx.db, world.partner.id, { by: "email", value: "erase@example.com" })).toEqual([open]);
    const [exported] = (await exportSessions(world.ctx.db, world.partner.id, [finished], new Date())).sessions;
    expect(exported).toMatchObject({ state: "cancelled", customerData: { status: "erased" } });
    const erasures = (await auditRows(world.partner.id)).filter((row) => row.kind === "customer_data_erased");
    expect(JSON.stringify(erasures)).not.toContain("erase@example.com");
    expect(JSON.stringify(erasures)).not.toContain("66666666Q");
  });

  it("lists a session whose customer is at the provider as not erasable now, with when to retry", async () => {
    const id = await sessionOf(world.partner, "provider@example.com", "55555555K");
    await world.ctx.db
      .update(checkoutSessions)
      .set({ operationId: "op_data_requests_pending", operationStatus: "CLIENT_REQUESTED" })
      .where(and(eq(checkoutSessions.id, id)));
    const [session] = await describeSessions(world.ctx.db, world.partner.id, [id], new Date());
    expect(session).toMatchObject({ state: "pending", erasable: { now: false } });
    expect(session!.erasable.now === false && session!.erasable.retryAfter).toBeInstanceOf(Date);
  });
});
