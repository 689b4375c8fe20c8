import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { sortOffers } from "@/lib/financing/offers";
import type { Db } from "@/lib/db";
import { checkoutSessions, partnerNotifications, sessionStatusHistory, staffUsers, webhookEvents } from "@/lib/db/schema";
import type { StatusRead } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import type { FinancialOffer, Operation, Page } from "@/lib/financing/types";
import { apiProblem, type ApiProblem } from "@/lib/financing/api-problem";
import { toListInput, type OperationFilters } from "./filters";
import { ownedOperationIds, ownsOperation } from "./ownership";
import { readCustomerData, type CustomerDataView } from "@/lib/checkout/session/customer-store";
import { operationOwners } from "@/lib/checkout/session/operation-link";
import type { StaffContext } from "@/lib/identity/staff";

/**
 * The operations as the partner API lists them, joined with what our checkout knows of each
 * (customer name, trip, history). Only the staff member's own partner's sessions are joined: the
 * same agency can be reached by two partners' credentials, and one must not see the other's
 * customers.
 */

export interface SessionSummary {
  sessionId: string;
  bookingReference: string;
  packageName: string;
  /** First and last name, as the customer gave them; undefined before they did, or when erased or unavailable. */
  customerName: string | undefined;
  /** The customer's data: none given yet, there, erased, or unavailable (no key of the deployment opens it). */
  customerData: "none" | CustomerDataView["status"];
  /**
   * The staff member who opened it as a payment link (name null: an account gone since); null when
   * the partner's backend opened it through the API.
   */
  createdBy: { staffId: string; name: string | null } | null;
}

export interface ListedOperation {
  operation: Operation;
  session: SessionSummary | undefined;
}

function customerNameOf(view: CustomerDataView | undefined): string | undefined {
  if (view?.status !== "present") return undefined;
  const data = view.draft;
  const name = [data.firstName, data.lastName].filter((part): part is string => typeof part === "string" && part.trim() !== "").join(" ");
  return name === "" ? undefined : name;
}

export async function sessionsByOperation(
  db: Db,
  partnerId: string,
  operationIds: readonly string[],
): Promise<Map<string, SessionSummary>> {
  // The partner's sessions behind these operations: the ones they hold, and the ones they replaced.
  const owners = (await operationOwners(db, operationIds)).filter((owner) => owner.partnerId === partnerId);
  if (owners.length === 0) return new Map();
  const rows = await db
    .select({
      sessionId: checkoutSessions.id,
      bookingReference: checkoutSessions.bookingReference,
      booking: checkoutSessions.booking,
      createdByStaffId: checkoutSessions.createdByStaffId,
      creatorName: staffUsers.name,
    })
    .from(checkoutSessions)
    // Only the partner's own staff: a name is never read across partners.
    .leftJoin(staffUsers, and(eq(staffUsers.id, checkoutSessions.createdByStaffId), eq(staffUsers.partnerId, partnerId)))
    .where(
      and(eq(checkoutSessions.partnerId, partnerId), inArray(checkoutSessions.id, [...new Set(owners.map((owner) => owner.sessionId))])),
    );
  const sessions = new Map(rows.map((row) => [row.sessionId, row]));
  const customers = await readCustomerData(db, [...sessions.keys()]);
  const map = new Map<string, SessionSummary>();
  for (const { operationId, sessionId } of owners) {
    const row = sessions.get(sessionId);
    if (!row) continue;
    map.set(operationId, {
      sessionId: row.sessionId,
      bookingReference: row.bookingReference,
      packageName: row.booking.packageName,
      customerName: customerNameOf(customers.get(sessionId)),
      customerData: customers.get(sessionId)?.status ?? "none",
      createdBy: row.createdByStaffId ? { staffId: row.createdByStaffId, name: row.creatorName } : null,
    });
  }
  return map;
}

/** An operation's page; the booking reference rides along as a hint for its amounts (see operationDetail). */
export function operationHref(operation: { id: string; externalId: string | null }): string {
  const base = `/admin/operations/${encodeURIComponent(operation.id)}`;
  return operation.externalId ? `${base}?ref=${encodeURIComponent(operation.externalId)}` : base;
}

/** One page of `GET /operations` for these filters, joined with our sessions. Throws FinancingApiError. */
export async function listOperationsPage(staff: StaffContext, filters: OperationFilters): Promise<Page<ListedOperation>> {
  const page = await ownedPage(staff, await staff.client.listOperations(toListInput(filters)));
  const sessions = await sessionsByOperation(
    staff.db,
    staff.partner.id,
    page.content.map((op) => op.id),
  );
  return { ...page, content: page.content.map((operation) => ({ operation, session: sessions.get(operation.id) })) };
}

/**
 * Only the partner's own operations of a page (ownership.ts). When some were left out (an agency
 * that is not the partner's), the counts are those of what is shown: how many others exist is
 * not the partner's to know.
 */
async function ownedPage(staff: StaffContext, page: Page<Operation>): Promise<Page<Operation>> {
  const owned = await ownedOperationIds(
    staff,
    page.content.map((op) => op.id),
  );
  if (owned.size === page.content.length) return page;
  const content = page.content.filter((op) => owned.has(op.id));
  return { ...page, content, totalElements: content.length, totalPages: content.length === 0 ? 0 : 1 };
}

/** The most rows an export gathers: 100 pages of 100. */
export const EXPORT_MAX_PAGES = 100;

/**
 * Every operation of these filters, page by page (size 100), for the CSV export. Operations created
 * while paging shift the pages (newest first): an id seen twice is kept once.
 */
export async function allOperations(staff: StaffContext, filters: OperationFilters): Promise<ListedOperation[]> {
  const seen = new Set<string>();
  const operations: Operation[] = [];
  for (let page = 1; page <= EXPORT_MAX_PAGES; page++) {
    const result = await staff.client.listOperations(toListInput({ ...filters, page, size: 100 }));
    for (const op of result.content) {
      if (!seen.has(op.id)) {
        seen.add(op.id);
        operations.push(op);
      }
    }
    if (result.last || result.content.length === 0) break;
  }
  const owned = await ownedOperationIds(
    staff,
    operations.map((op) => op.id),
  );
  const ownOperations = operations.filter((op) => owned.has(op.id));
  const sessions = await sessionsByOperation(
    staff.db,
    staff.partner.id,
    ownOperations.map((op) => op.id),
  );
  return ownOperations.map((operation) => ({ operation, session: sessions.get(operation.id) }));
}

// ---------------------------------------------------------------------------------------------
// One operation

export type OffersView =
  { kind: "offers"; offers: FinancialOffer[] } | { kind: "not_eligible" } | { kind: "none" } | { kind: "unavailable" };

export interface OperationDetail {
  kind: "ok";
  status: StatusRead;
  session: SessionSummary | undefined;
  /** From `GET /operations/by-external-id`, when the booking reference is known. */
  operation: Operation | undefined;
  offers: OffersView;
  history: (typeof sessionStatusHistory.$inferSelect)[];
  events: (typeof webhookEvents.$inferSelect)[];
  notifications: Pick<
    typeof partnerNotifications.$inferSelect,
    "id" | "state" | "createdAt" | "attempts" | "deliveredAt" | "lastError" | "nextAttemptAt"
  >[];
}

/**
 * Everything the operation page shows. Ownership comes first (ownership.ts): someone else's
 * operation is "not found" before any partner API call. Then the status call: the API answers 404
 * or 403 for an operation this credential and agency may not see, and then nothing of ours (its
 * webhook events included) is shown either. `referenceHint` (the list's link carries the booking reference) is only a
 * hint: the operation it finds must have this id.
 */
export async function operationDetail(
  staff: StaffContext,
  operationId: string,
  referenceHint: string | undefined,
): Promise<OperationDetail | { kind: "problem"; problem: ApiProblem }> {
  if (!(await ownsOperation(staff, operationId))) return { kind: "problem", problem: "not_found" };
  let status: StatusRead;
  try {
    status = await staff.client.getStatus(operationId);
  } catch (error) {
    return { kind: "problem", problem: apiProblem(error, "reading an operation's status") };
  }

  const session = (await sessionsByOperation(staff.db, staff.partner.id, [operationId])).get(operationId);
  const reference = session?.bookingReference ?? referenceHint;

  const [operation, offers, history, events, notifications] = await Promise.all([
    reference ? operationByReference(staff, reference, operationId) : Promise.resolve(undefined),
    loadOffers(staff, operationId),
    session
      ? staff.db
          .select()
          .from(sessionStatusHistory)
          .where(eq(sessionStatusHistory.sessionId, session.sessionId))
          .orderBy(asc(sessionStatusHistory.id))
      : Promise.resolve([]),
    staff.db.select().from(webhookEvents).where(eq(webhookEvents.operationId, operationId)).orderBy(asc(webhookEvents.receivedAt)),
    session
      ? staff.db
          .select({
            id: partnerNotifications.id,
            state: partnerNotifications.state,
            createdAt: partnerNotifications.createdAt,
            attempts: partnerNotifications.attempts,
            deliveredAt: partnerNotifications.deliveredAt,
            lastError: partnerNotifications.lastError,
            nextAttemptAt: partnerNotifications.nextAttemptAt,
          })
          .from(partnerNotifications)
          .where(and(eq(partnerNotifications.sessionId, session.sessionId), eq(partnerNotifications.partnerId, staff.partner.id)))
          .orderBy(desc(partnerNotifications.createdAt))
      : Promise.resolve([]),
  ]);
  return { kind: "ok", status, session, operation, offers, history, events, notifications };
}

async function operationByReference(staff: StaffContext, reference: string, operationId: string): Promise<Operation | undefined> {
  try {
    const operation = await staff.client.getOperationByExternalId(reference);
    return operation.id === operationId ? operation : undefined;
  } catch (error) {
    apiProblem(error, "reading an operation by its booking reference");
    return undefined;
  }
}

async function loadOffers(staff: StaffContext, operationId: string): Promise<OffersView> {
  try {
    const { offers } = await staff.client.getOffers(operationId);
    return offers.length === 0 ? { kind: "none" } : { kind: "offers", offers: sortOffers(offers) };
  } catch (error) {
    if (isFinancingApiError(error, "NOT_ELIGIBLE_FOR_FINANCING")) return { kind: "not_eligible" };
    apiProblem(error, "reading an operation's offers");
    return { kind: "unavailable" };
  }
}
