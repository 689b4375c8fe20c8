import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { recordAudit, type AuditEventInput } from "@/lib/audit/audit";
import { findSessionsByCustomer, readCustomerData, type CustomerDataView } from "@/lib/checkout/session/customer-store";
import { eraseSessionCustomerData, erasureDecision } from "@/lib/checkout/session/erasure";
import { isFinal, sessionState } from "@/lib/checkout/session/session-state";
import { AppError } from "@/lib/app-error";
import type { Keyring } from "@/lib/config/keyring";
import type { Db } from "@/lib/db";
import { checkoutSessions, type CheckoutSessionRow } from "@/lib/db/schema";
import { can, type PermissionHolder } from "@/lib/identity/permissions";
import { loggerFor } from "@/lib/logger";
import { safeText } from "@/lib/validation/text";
import { CUSTOMER_FIELDS, type CustomerField, type StoredCustomerDraft } from "@/lib/vocabulary/customer";
import type { SessionState, StoredBooking, StoredPlan } from "@/lib/vocabulary/session";

/**
 * A customer's data requests, for the partner's staff holding the "data-requests" permission: find
 * the partner's sessions of a customer (by document number or e-mail, through the keyed hashes:
 * findSessionsByCustomer), say what erasing each would empty and whether it can be erased now, and
 * export everything held on that customer in the partner's sessions (access and portability).
 * Only the staff member's own partner's sessions, whatever the search finds. An export is audited
 * (who, how many sessions, in which form), never with the data or what was searched.
 */

const log = loggerFor("backoffice");

/** Who asks: a partner's staff member, as the session gives them. */
export interface DataRequestActor {
  db: Db;
  partner: { id: string };
  user: PermissionHolder & { id: string; name: string };
}

/** What a customer is searched by: a document number or an e-mail address, however written. */
export const dataRequestQuerySchema = z.object({
  by: z.enum(["document", "email"]),
  value: z.string().check(safeText()).trim().min(1).max(254),
});
export type DataRequestQuery = z.output<typeof dataRequestQuerySchema>;

/** One of the partner's sessions holding the customer's data, as the data requests page lists it. */
export interface DataRequestSession {
  sessionId: string;
  bookingReference: string;
  state: SessionState;
  createdAt: Date;
  expiresAt: Date;
  customerData: CustomerDataView["status"];
  /** The customer's fields that erasing would empty (with the search hashes); none once erased or unavailable. */
  fields: CustomerField[];
  /**
   * Whether it can be erased now: not while the customer's outcome is open (the data is still in
   * use); then `retryAfter`, when to try again.
   */
  erasable: { now: true } | { now: false; retryAfter: Date };
}

/** A session's entry in an export: its booking, amounts, plan, states and dates, and the customer's data as held. */
export interface ExportedSession {
  sessionId: string;
  bookingReference: string;
  state: SessionState;
  final: boolean;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  cancelledAt: string | null;
  booking: Omit<StoredBooking, "bookingReference">;
  chosenPlan: StoredPlan | null;
  operation: { id: string; status: string | null; updatedAt: string | null } | null;
  customerData: { status: "present"; data: StoredCustomerDraft } | { status: "erased"; erasedAt: string } | { status: "unavailable" };
}

/** Everything held on a customer in the partner's sessions (the JSON download, the readable page). */
export interface CustomerExport {
  format: "checkout-customer-export/v1";
  generatedAt: string;
  partnerId: string;
  sessions: ExportedSession[];
}

export type DataRequestRefusal = { ok: false; reason: "forbidden" };

/** An audit event of this staff member, for the partner they act for. */
function auditAs(
  actor: DataRequestActor,
  ip: string | undefined,
  now: Date,
  event: Pick<AuditEventInput, "kind" | "result" | "details">,
): Promise<void> {
  return recordAudit(
    actor.db,
    { ...event, partnerId: actor.partner.id, staff: { id: actor.user.id, name: actor.user.name }, ip: ip ?? null },
    now,
  );
}

async function refuse(actor: DataRequestActor, action: string, ip: string | undefined, now: Date): Promise<DataRequestRefusal> {
  log.info({ userId: actor.user.id, action }, "backoffice: a data request was refused: no permission");
  await auditAs(actor, ip, now, { kind: "permission_refused", result: "refused", details: { permission: "data-requests", action } });
  return { ok: false, reason: "forbidden" };
}

/** The ids of the partner's sessions holding this customer's data: another partner's are never among them. */
export async function partnerSessionsOfCustomer(db: Db, partnerId: string, query: DataRequestQuery, keyring?: Keyring): Promise<string[]> {
  const found = await findSessionsByCustomer(
    db,
    query.by === "document" ? { documentNumber: query.value } : { email: query.value },
    keyring,
  );
  return found.filter((row) => row.partnerId === partnerId).map((row) => row.sessionId);
}

/** These sessions of the partner (an id of another partner's is left out), oldest first. */
async function partnerSessions(db: Db, partnerId: string, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  return db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.partnerId, partnerId), inArray(checkoutSessions.id, [...new Set(sessionIds)])))
    .orderBy(checkoutSessions.createdAt, checkoutSessions.id);
}

function filledFields(view: CustomerDataView | undefined): CustomerField[] {
  if (view?.status !== "present") return [];
  return CUSTOMER_FIELDS.filter((field) => (view.draft[field] ?? "").trim() !== "");
}

/** Whether the session can be erased now, by the erasure's own rule (erasure-rule.ts), and if not, when to retry. */
function erasableNow(row: CheckoutSessionRow, now: Date): DataRequestSession["erasable"] {
  const decision = erasureDecision(row, now);
  return decision.allowed ? { now: true } : { now: false, retryAfter: decision.retryAt };
}

/** The partner's sessions of a customer, with what erasing each would empty and whether it can be now. */
export async function findCustomerSessions(
  actor: DataRequestActor,
  query: DataRequestQuery,
  options: { ip?: string; now?: Date; keyring?: Keyring } = {},
): Promise<{ ok: true; sessions: DataRequestSession[] } | DataRequestRefusal> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "data-requests")) return refuse(actor, "search", options.ip, now);
  const ids = await partnerSessionsOfCustomer(actor.db, actor.partner.id, query, options.keyring);
  return { ok: true, sessions: await describeSessions(actor.db, actor.partner.id, ids, now, options.keyring) };
}

/** These sessions of the partner as the data requests page lists them (erased and unavailable ones too). */
export async function describeSessions(
  db: Db,
  partnerId: string,
  sessionIds: readonly string[],
  now: Date,
  keyring?: Keyring,
): Promise<DataRequestSession[]> {
  const rows = await partnerSessions(db, partnerId, sessionIds);
  const data = await readCustomerData(
    db,
    rows.map((row) => row.id),
    keyring,
  );
  return rows.map((row) => {
    const view = data.get(row.id);
    const state = sessionState(row, now);
    return {
      sessionId: row.id,
      bookingReference: row.bookingReference,
      state,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      customerData: view?.status ?? "erased",
      fields: filledFields(view),
      erasable: erasableNow(row, now),
    };
  });
}

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function exportedData(view: CustomerDataView | undefined): ExportedSession["customerData"] {
  if (!view) return { status: "erased", erasedAt: new Date(0).toISOString() };
  if (view.status === "present") return { status: "present", data: view.draft };
  if (view.status === "erased") return { status: "erased", erasedAt: view.erasedAt.toISOString() };
  return { status: "unavailable" };
}

/** The export of these sessions of the partner: an erased or unavailable customer's data says so, never fails. */
export async function exportSessions(
  db: Db,
  partnerId: string,
  sessionIds: readonly string[],
  now: Date,
  keyring?: Keyring,
): Promise<CustomerExport> {
  const rows = await partnerSessions(db, partnerId, sessionIds);
  const data = await readCustomerData(
    db,
    rows.map((row) => row.id),
    keyring,
  );
  const sessions = rows.map((row): ExportedSession => {
    const state = sessionState(row, now);
    const { bookingReference: _reference, ...booking } = row.booking;
    return {
      sessionId: row.id,
      bookingReference: row.bookingReference,
      state,
      final: isFinal(state),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      cancelledAt: iso(row.cancelledAt),
      booking,
      chosenPlan: row.chosenPlan ?? null,
      operation: row.operationId
        ? { id: row.operationId, status: row.operationStatus ?? null, updatedAt: iso(row.operationUpdatedAt) }
        : null,
      customerData: exportedData(data.get(row.id)),
    };
  });
  return { format: "checkout-customer-export/v1", generatedAt: now.toISOString(), partnerId, sessions };
}

/**
 * Everything held on the customer in the partner's sessions, for the customer's access or
 * portability request; audited: who exported, how many sessions, in which form (never the data,
 * never what was searched).
 */
export async function exportCustomerData(
  actor: DataRequestActor,
  query: DataRequestQuery,
  format: "json" | "page",
  options: { ip?: string; now?: Date; keyring?: Keyring } = {},
): Promise<{ ok: true; export: CustomerExport } | DataRequestRefusal> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "data-requests")) return refuse(actor, "export", options.ip, now);
  const ids = await partnerSessionsOfCustomer(actor.db, actor.partner.id, query, options.keyring);
  const exported = await exportSessions(actor.db, actor.partner.id, ids, now, options.keyring);
  await auditAs(actor, options.ip, now, {
    kind: "customer_data_exported",
    result: "ok",
    details: { sessions: exported.sessions.length, format, by: query.by },
  });
  return { ok: true, export: exported };
}

/** The JSON download's file name: no personal data in it. */
export function exportFileName(now: Date): string {
  return `customer-data-${now.toISOString().slice(0, 19).replace(/[:T]/g, "-")}.json`;
}

/** How erasing a customer's sessions ended, session by session. */
export interface ErasureAnswer {
  erased: { sessionId: string; bookingReference: string }[];
  /** Still in use: when to try again. */
  refused: { sessionId: string; bookingReference: string; retryAfter: Date }[];
}

/**
 * Erases the customer's data of these sessions of the partner, each through the one erasure
 * (eraseSessionCustomerData: the rule, the partner's notification, the audit). A session still in
 * use is refused with when to retry; one of another partner, or unknown, is left out; an erased
 * one again is a repeat, said as erased.
 */
export async function eraseCustomerSessions(
  actor: DataRequestActor,
  sessionIds: readonly string[],
  options: { ip?: string; now?: Date } = {},
): Promise<({ ok: true } & ErasureAnswer) | DataRequestRefusal> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "data-requests")) return refuse(actor, "erase", options.ip, now);
  const answer: ErasureAnswer = { erased: [], refused: [] };
  for (const sessionId of new Set(sessionIds)) {
    try {
      const { session } = await eraseSessionCustomerData(actor.db, {
        sessionId,
        partnerId: actor.partner.id,
        by: { kind: "staff", staffId: actor.user.id, staffName: actor.user.name },
        now,
      });
      answer.erased.push({ sessionId, bookingReference: session.bookingReference });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === "customer_data_in_use") {
        const [row] = await partnerSessions(actor.db, actor.partner.id, [sessionId]);
        const retryAfter = new Date(now.getTime() + (error.details.retryAfterS ?? 60) * 1000);
        answer.refused.push({ sessionId, bookingReference: row?.bookingReference ?? sessionId, retryAfter });
      } else if (error.code !== "not_found") throw error;
    }
  }
  return { ok: true, ...answer };
}
