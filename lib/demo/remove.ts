import "server-only";
import { count, inArray, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import {
  checkoutSessions,
  partnerNotifications,
  partners,
  replacedOperations,
  staffUsers,
  statusSnapshots,
  webhookEvents,
} from "@/lib/db/schema";
import { DEMO_BLUE_PARTNER_ID, DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, DEMO_STAFF } from "./seed";

/**
 * The demo data, found and removed. Its credentials are published (the QA and back-office guides list them), so a
 * database that holds it must not serve the production API: lib/startup.ts refuses to start there,
 * and `npm run demo:remove` (scripts/demo-remove.ts) removes it. The demo rows are known by the
 * fixed ids and e-mails lib/demo/seed.ts gives them.
 */

export const DEMO_PARTNER_IDS: readonly string[] = [DEMO_PARTNER_ID, DEMO_BLUE_PARTNER_ID, DEMO_GROUP_PARTNER_ID];
const DEMO_STAFF_IDS: readonly string[] = DEMO_STAFF.map((staff) => staff.id);
const DEMO_STAFF_EMAILS: readonly string[] = DEMO_STAFF.map((staff) => staff.email);

const isDemoPartner = () => inArray(partners.id, [...DEMO_PARTNER_IDS]);
const isDemoStaff = () =>
  or(
    inArray(staffUsers.id, [...DEMO_STAFF_IDS]),
    inArray(staffUsers.email, [...DEMO_STAFF_EMAILS]),
    inArray(staffUsers.partnerId, [...DEMO_PARTNER_IDS]),
  );

export interface DemoData {
  partners: number;
  staff: number;
}

export async function findDemoData(db: Db): Promise<DemoData> {
  const [found] = await db.select({ n: count() }).from(partners).where(isDemoPartner());
  const [staff] = await db.select({ n: count() }).from(staffUsers).where(isDemoStaff());
  return { partners: found?.n ?? 0, staff: staff?.n ?? 0 };
}

export interface RemovedDemoData extends DemoData {
  sessions: number;
}

/**
 * Removes the demo partners, their staff (and the staff's sessions), their checkout sessions with
 * everything hanging from them (customer data, history, notifications, the webhook events and
 * status snapshots of their operations), in one transaction: all of it or nothing. A table added
 * later that still points at a demo row makes the last delete fail, and nothing is removed.
 */
export async function removeDemoData(db: Db): Promise<RemovedDemoData> {
  return db.transaction(async (tx) => {
    const demoSessions = inArray(checkoutSessions.partnerId, [...DEMO_PARTNER_IDS]);
    // Their operations: the ones the sessions hold, and the ones they replaced (replaced_operations,
    // which goes with its session).
    const demoOperations = tx.select({ id: checkoutSessions.operationId }).from(checkoutSessions).where(demoSessions);
    const replacedDemoOperations = tx
      .select({ id: replacedOperations.operationId })
      .from(replacedOperations)
      .where(inArray(replacedOperations.partnerId, [...DEMO_PARTNER_IDS]));
    for (const operations of [demoOperations, replacedDemoOperations]) {
      await tx.delete(webhookEvents).where(inArray(webhookEvents.operationId, operations));
      await tx.delete(statusSnapshots).where(inArray(statusSnapshots.operationId, operations));
    }
    await tx.delete(partnerNotifications).where(inArray(partnerNotifications.partnerId, [...DEMO_PARTNER_IDS]));
    // customer_data and session_status_history go with their session (on delete cascade).
    const sessions = await tx.delete(checkoutSessions).where(demoSessions).returning({ id: checkoutSessions.id });
    // staff_sessions go with their user (on delete cascade).
    const staff = await tx.delete(staffUsers).where(isDemoStaff()).returning({ id: staffUsers.id });
    const removed = await tx.delete(partners).where(isDemoPartner()).returning({ id: partners.id });
    return { partners: removed.length, staff: staff.length, sessions: sessions.length };
  });
}
