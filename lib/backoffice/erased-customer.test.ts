import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eraseCustomerData } from "@/lib/checkout/session/customer-store";
import { createSession } from "@/lib/checkout/session/sessions";
import { customerDraft, sessionInput } from "@/lib/checkout/testing/context";
import { offlineWorld } from "@/lib/checkout/testing/offline-world";
import { checkoutSessions, customerData } from "@/lib/db/schema";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { customerLabel } from "./common/format";
import { sessionsByOperation } from "./operations/operations";
import { operationsCsv } from "./operations/operations-csv";
import { listPartnerNotifications, resendNotification } from "./notifications/notifications";
import { eraseSessionCustomerData } from "@/lib/checkout/session/erasure";
import { getPaymentLink } from "./payment-links/payment-links";

/*
 * The back-office's readers of a customer's data (the operations list and page, a payment link)
 * with that data erased, or sealed under no key the server holds: they say so, and never fail.
 */

const APP_URL = "http://127.0.0.1:3999";

const world = offlineWorld();

/** A session prefilled with a customer, holding the operation `operationId`. */
async function sessionWithOperation(operationId: string, email: string): Promise<string> {
  const { session } = await createSession(world.ctx.db, world.partner, sessionInput({ customer: customerDraft(email) }));
  await world.ctx.db.update(checkoutSessions).set({ operationId }).where(eq(checkoutSessions.id, session.id));
  return session.id;
}

describe("the back-office with a customer's data erased or unavailable", () => {
  it("the operations list and page show the name, then 'erased', in both languages", async () => {
    const id = await sessionWithOperation("op_erased_list_1", "erased-list@example.com");
    const before = (await sessionsByOperation(world.ctx.db, world.partner.id, ["op_erased_list_1"])).get("op_erased_list_1")!;
    expect(before).toMatchObject({ sessionId: id, customerName: "Ana García", customerData: "present" });

    await eraseCustomerData(world.ctx.db, id, new Date());
    const after = (await sessionsByOperation(world.ctx.db, world.partner.id, ["op_erased_list_1"])).get("op_erased_list_1")!;
    expect(after).toMatchObject({ sessionId: id, customerName: undefined, customerData: "erased" });
    expect(customerLabel(after, getAdminMessages("es").common)).toBe("Datos borrados");
    expect(customerLabel(after, getAdminMessages("en").common)).toBe("Details erased");
    expect(customerLabel(before, getAdminMessages("en").common)).toBe("Ana García");
  });

  it("data sealed for another row shows as unavailable, not an error", async () => {
    const source = await sessionWithOperation("op_unavailable_src", "source@example.com");
    const target = await sessionWithOperation("op_unavailable_dst", "target@example.com");
    const [copied] = await world.ctx.db.select({ data: customerData.data }).from(customerData).where(eq(customerData.sessionId, source));
    await world.ctx.db.update(customerData).set({ data: copied!.data }).where(eq(customerData.sessionId, target));

    const sessions = await sessionsByOperation(world.ctx.db, world.partner.id, ["op_unavailable_src", "op_unavailable_dst"]);
    expect(sessions.get("op_unavailable_src")).toMatchObject({ customerData: "present", customerName: "Ana García" });
    expect(sessions.get("op_unavailable_dst")).toMatchObject({ customerData: "unavailable", customerName: undefined });
    expect(customerLabel(sessions.get("op_unavailable_dst")!, getAdminMessages("en").common)).toBe("Details unavailable");
  });

  it("a payment link offers the prefilled address, and no address once the data is erased", async () => {
    const id = await sessionWithOperation("op_erased_link_1", "erased-link@example.com");
    expect(await getPaymentLink(world.ctx.db, world.partner.id, APP_URL, id)).toMatchObject({
      prefilledEmail: "erased-link@example.com",
      customerErased: false,
    });
    await eraseCustomerData(world.ctx.db, id, new Date());
    expect(await getPaymentLink(world.ctx.db, world.partner.id, APP_URL, id)).toMatchObject({
      prefilledEmail: undefined,
      customerErased: true,
    });
  });

  it("the CSV export and a resend of the erasure's notification work on an erased session", async () => {
    const id = await sessionWithOperation("op_erased_csv_1", "erased-csv@example.com");
    await world.ctx.db.update(checkoutSessions).set({ operationStatus: "CONFIRMED" }).where(eq(checkoutSessions.id, id));
    await eraseSessionCustomerData(world.ctx.db, { sessionId: id, partnerId: world.partner.id, by: { kind: "retention" } });
    const session = (await sessionsByOperation(world.ctx.db, world.partner.id, ["op_erased_csv_1"])).get("op_erased_csv_1")!;
    const operation = {
      id: "op_erased_csv_1",
      operationNumber: 7,
      externalId: session.bookingReference,
      status: "CONFIRMED" as const,
      totalPrice: { cents: 100, currency: "EUR" },
      totalReserve: { cents: 0, currency: "EUR" },
      financingUrl: null,
      updatedAt: "2026-03-01T10:00:00Z",
    };
    const csv = operationsCsv([{ operation, session }]);
    expect(csv).toContain('"op_erased_csv_1"');
    expect(csv).not.toContain("erased-csv@example.com");

    const { items } = await listPartnerNotifications(world.ctx.db, world.partner.id);
    const erased = items.find((item) => item.sessionId === id && item.state === "customer_data_erased")!;
    expect(erased.type).toBe("checkout.session.customer_data_erased");
    // No notification URL: nothing sent, nothing failed.
    expect(await resendNotification(world.ctx.db, world.partner.id, erased.id)).toMatchObject({ ok: true });
  });
});
