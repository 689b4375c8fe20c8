import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import type { Db } from "@/lib/db";
import { preparedPerDb } from "@/lib/db/prepared";
import { checkoutSessions, sessionStatusHistory, type CheckoutSessionRow } from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import type { FinancialOffer } from "@/lib/financing/types";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { rememberFrameAncestors } from "@/lib/security/headers/frame-ancestors";
import { isAllowedReturnUrl, returnUrlOffOrigins, type Partner } from "@/lib/partners/partners";
import { bookingHash, type CreateSessionInput } from "./booking";
import { storePrefill } from "./customer-store";
import { attachedRow, whyNotAttached } from "./operation-link";
import { enqueueNotification, outboxTransaction, type Tx } from "./outbox";
import { activeTraceparent, noteSessionOnSpan } from "@/lib/tracing/spans";
import {
  chosenPlanOf,
  isNewerStatus,
  SESSION_TTL_MS,
  sessionState,
  STATE_OF_STATUS,
  type CheckoutSession,
  type SessionState,
  type StatusSource,
} from "./session-state";

/**
 * The checkout sessions' store: their reads and writes in the database. What a state means, and
 * which report is newer, are the rules of session-state.ts; a write that moves a session to a new
 * state queues its partner's notification in the same transaction (outbox.ts).
 */

/**
 * The SQL twin of sessionState: the sessions in `state` at `now`, for a list filtered by state
 * (lib/checkout/api/session-list.ts). sessions.test.ts holds the two to the same answer for every
 * kind of row.
 */
export function sessionStateCondition(state: SessionState, now = new Date()): SQL {
  // Said once (markNotEligible), it is the state whatever else the row holds.
  if (state === "not_eligible") return isNotNull(checkoutSessions.notEligibleAt);
  return and(isNull(checkoutSessions.notEligibleAt), stateByStatus(state, now))!;
}

function stateByStatus(state: Exclude<SessionState, "not_eligible">, now: Date): SQL {
  const s = checkoutSessions;
  const statusesOf = (wanted: SessionState) =>
    (Object.keys(STATE_OF_STATUS) as OperationStatus[]).filter((status) => STATE_OF_STATUS[status] === wanted);
  const requested = eq(s.financingStatus, "REQUESTED");
  const notRequested = or(isNull(s.financingStatus), ne(s.financingStatus, "REQUESTED"))!;
  const unstarted = and(isNull(s.operationStatus), isNull(s.cancelledAt))!;
  const isoNow = now.toISOString();
  switch (state) {
    case "open":
      return and(unstarted, sql`${s.expiresAt} > ${isoNow}::timestamptz`)!;
    case "expired":
      return or(and(unstarted, sql`${s.expiresAt} <= ${isoNow}::timestamptz`), inArray(s.operationStatus, statusesOf("expired")))!;
    case "cancelled":
      return or(and(isNull(s.operationStatus), isNotNull(s.cancelledAt)), inArray(s.operationStatus, statusesOf("cancelled")))!;
    case "choosing":
      return and(inArray(s.operationStatus, statusesOf("choosing")), notRequested)!;
    case "pending":
      return or(inArray(s.operationStatus, statusesOf("pending")), and(inArray(s.operationStatus, statusesOf("choosing")), requested))!;
    case "error": {
      // A status the contract does not know reads as `error` too.
      const otherwise = (Object.keys(STATE_OF_STATUS) as OperationStatus[]).filter((status) => STATE_OF_STATUS[status] !== "error");
      return and(isNotNull(s.operationStatus), notInArray(s.operationStatus, otherwise))!;
    }
    default:
      return inArray(s.operationStatus, statusesOf(state));
  }
}

function newSessionId(): string {
  // 144 random bits: the session URL is the customer's only key to it.
  return `cs_${randomBytes(18).toString("base64url")}`;
}

/**
 * Opens a session, or returns the one already open for this booking reference (idempotent per
 * partner and reference; the database's unique constraint settles concurrent creates). The same
 * reference with a different booking is a conflict, not a silent reuse.
 */
export async function createSession(
  db: Db,
  partner: Partner,
  input: CreateSessionInput,
  now = new Date(),
  /** A payment link: the staff member opening it (lib/backoffice/payment-links/payment-links.ts). */
  options: { createdByStaffId?: string } = {},
): Promise<{ session: CheckoutSession; created: boolean }> {
  if (!isAllowedReturnUrl(partner, input.returnUrl)) {
    throw new AppError("validation_failed", "returnUrl is not on one of the partner's allowed origins", {
      fields: [{ field: "returnUrl", message: returnUrlOffOrigins(partner) }],
    });
  }
  const hash = bookingHash(input.booking);
  const id = newSessionId();
  const inserted = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(checkoutSessions)
      .values({
        id,
        partnerId: partner.id,
        bookingReference: input.booking.bookingReference,
        booking: input.booking,
        bookingHash: hash,
        returnUrl: input.returnUrl,
        locale: input.locale ?? null,
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
        createdByStaffId: options.createdByStaffId ?? null,
        // The trace of the call that opened it (tracing on): the session's story starts there.
        traceParent: activeTraceparent() ?? null,
      })
      .onConflictDoNothing({ target: [checkoutSessions.partnerId, checkoutSessions.bookingReference] })
      .returning();
    if (rows.length > 0 && input.customer) {
      await storePrefill(tx, id, input.customer);
    }
    return rows[0];
  });
  if (inserted) {
    // Who may frame its pages, which the proxy would look up on the first one: known here already.
    rememberFrameAncestors(inserted.id, { partnerId: partner.id, origins: partner.allowedOrigins });
    noteSessionOnSpan(inserted.id, inserted.traceParent);
    return { session: inserted, created: true };
  }

  const [existing] = await db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.partnerId, partner.id), eq(checkoutSessions.bookingReference, input.booking.bookingReference)));
  if (!existing) throw new AppError("internal", "The session could not be created");
  if (existing.bookingHash !== hash) {
    throw new AppError("conflict", "A session with this bookingReference exists for a different booking", {
      fields: [{ field: "booking.bookingReference", message: "is already used for a different booking" }],
    });
  }
  return { session: existing, created: false };
}

// The reads every checkout page and status poll makes, prepared once per database handle.
const sessionById = preparedPerDb((db) =>
  db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.id, sql.placeholder("id")))
    .limit(1)
    .prepare("session_by_id"),
);
const sessionByOperation = preparedPerDb((db) =>
  db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.operationId, sql.placeholder("operationId")))
    .limit(1)
    .prepare("session_by_operation"),
);
export async function getSession(db: Db, id: string): Promise<CheckoutSession | undefined> {
  if (!isCheckoutSessionId(id)) return undefined;
  const [row] = await sessionById(db).execute({ id });
  // The page, action or call reading it is part of the session's story: its span says which session, and links to its trace.
  if (row) noteSessionOnSpan(row.id, row.traceParent);
  return row;
}

export async function requireSession(db: Db, id: string): Promise<CheckoutSession> {
  const session = await getSession(db, id);
  if (!session) throw new AppError("not_found", "This checkout does not exist");
  return session;
}

export async function getSessionByOperation(db: Db, operationId: string): Promise<CheckoutSession | undefined> {
  const [row] = await sessionByOperation(db).execute({ operationId });
  if (row) noteSessionOnSpan(row.id, row.traceParent);
  return row;
}

/**
 * Cancels a session whose customer has not sent their data yet (no operation at the partner API):
 * its partner's cancel through the checkout sessions API. Conditional, so a customer's submit
 * attaching an operation at that moment (attachOperation) and the cancel cannot both win; the
 * partner's `cancelled` notification is written in the same transaction. Undefined when the session
 * was not open and without an operation (an expired or revoked one included).
 */
export async function cancelUnstartedSession(db: Db, sessionId: string, now = new Date()): Promise<CheckoutSession | undefined> {
  return outboxTransaction(db, async (tx) => {
    const [cancelled] = await tx
      .update(checkoutSessions)
      .set({ cancelledAt: now, updatedAt: now })
      .where(
        and(
          eq(checkoutSessions.id, sessionId),
          isNull(checkoutSessions.operationId),
          isNull(checkoutSessions.cancelledAt),
          isNull(checkoutSessions.notEligibleAt),
          gt(checkoutSessions.expiresAt, now),
        ),
      )
      .returning();
    if (!cancelled) return undefined;
    await enqueueNotification(tx, cancelled, now);
    return cancelled;
  });
}

/** An operation's status as the partner API reported it. */
export interface StatusReport {
  status: OperationStatus;
  updatedAt: string;
}

/** What a plan request writes on the session (updateSession). */
type SessionValues = Partial<Pick<CheckoutSessionRow, "paymentUrl" | "chosenOfferId" | "financingStatus" | "hasAlternatives">>;

/**
 * Records what POST /financing said. A provider that accepted the request (`REQUESTED`) moves the
 * session to `pending` without any operation status changing: the partner is told of it here, in
 * the same transaction, as recordOperationStatus tells of the states a status reaches. With the
 * operation's status read since (`report`, applied forward only like recordOperationStatus), the
 * notification carries that status: what GET answers from then on.
 */
export async function updateSession(
  db: Db,
  sessionId: string,
  values: SessionValues,
  report?: { operationId: string; status: StatusReport; source: StatusSource },
): Promise<void> {
  await outboxTransaction(db, async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for("update");
    if (!row) return;
    // The values and a newer status in one update.
    const updated =
      report && row.operationId === report.operationId && isNewerStatus(row, report.status)
        ? await applyStatus(tx, row, report.status, report.source, values)
        : (
            await tx
              .update(checkoutSessions)
              .set({ ...values, updatedAt: new Date() })
              .where(eq(checkoutSessions.id, sessionId))
              .returning()
          )[0];
    if (sessionState(updated!) !== sessionState(row)) await enqueueNotification(tx, updated!);
  });
}

/** Writes a newer status (and `values`) onto the locked row, and the status into its history; answers the row as written. */
async function applyStatus(
  tx: Tx,
  row: CheckoutSession,
  report: StatusReport,
  source: StatusSource,
  values: SessionValues = {},
): Promise<CheckoutSession> {
  const updatedAt = new Date(report.updatedAt);
  const [updated] = await tx
    .update(checkoutSessions)
    .set({ ...values, operationStatus: report.status, operationUpdatedAt: updatedAt, updatedAt: new Date() })
    .where(eq(checkoutSessions.id, row.id))
    .returning();
  await tx.insert(sessionStatusHistory).values({ sessionId: row.id, status: report.status, source, operationUpdatedAt: updatedAt });
  return updated!;
}

/**
 * The partner API said the session's operation can never be financed (not eligible, or no offer at
 * all) while its customer was choosing: the session ends `not_eligible`, and the partner is told in
 * the same transaction. Only while the session still holds that operation and is choosing (a
 * correction may have replaced it, a plan may have been requested meanwhile). Answers whether it
 * changed.
 */
export async function markNotEligible(db: Db, target: { sessionId: string; operationId: string }, now = new Date()): Promise<boolean> {
  return outboxTransaction(db, async (tx) => {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, target.sessionId), eq(checkoutSessions.operationId, target.operationId)))
      .for("update");
    if (!row || sessionState(row, now) !== "choosing") return false;
    // A plan request under way (claimFinancingStart) will have its own answer: it is not overtaken.
    if (row.financingStatus === "STARTING" && now.getTime() - row.updatedAt.getTime() < CLAIM_TTL_MS) return false;
    const [updated] = await tx
      .update(checkoutSessions)
      .set({ notEligibleAt: now, updatedAt: now })
      .where(eq(checkoutSessions.id, row.id))
      .returning();
    await enqueueNotification(tx, updated!, now);
    return true;
  });
}

/**
 * Claims the right to call POST /financing for this session: only one request at a time gets
 * it, so a double submit cannot start financing twice. Returns false when another holds it.
 * The offer is noted as the one chosen, with its figures.
 */
export async function claimFinancingStart(db: Db, sessionId: string, offer: FinancialOffer, now = new Date()): Promise<boolean> {
  // One conditional update (the row locked by it alone): not once requested, nor while another
  // request's claim is live; a claim left by a request that died (a killed instance) lapses after a minute.
  const traceParent = activeTraceparent();
  const claimed = await db
    .update(checkoutSessions)
    // The customer chose here: the session's later work (webhooks, reconciler, notifications) joins this trace.
    .set({
      financingStatus: "STARTING",
      chosenOfferId: offer.id,
      chosenPlan: chosenPlanOf(offer),
      updatedAt: now,
      ...(traceParent && { traceParent }),
    })
    .where(
      and(
        eq(checkoutSessions.id, sessionId),
        or(
          isNull(checkoutSessions.financingStatus),
          and(
            ne(checkoutSessions.financingStatus, "REQUESTED"),
            or(ne(checkoutSessions.financingStatus, "STARTING"), lte(checkoutSessions.updatedAt, new Date(now.getTime() - CLAIM_TTL_MS))),
          ),
        ),
      ),
    )
    .returning({ id: checkoutSessions.id });
  return claimed.length > 0;
}

const CLAIM_TTL_MS = 60_000;

/**
 * Records an operation status the partner API reported, forward only: a report older than the one
 * stored (by the API's updatedAt, then by how far along the status is) changes nothing. Row-locked,
 * so a webhook, a return redirect and a poll racing on one session apply it once.
 *
 * The report is about one operation, and applies only while the session still holds it: a customer's
 * correction may have detached that operation (detachOperation) between the read and this write, and
 * its status must not land on the session that now waits for a new one.
 *
 * @returns whether the session changed.
 */
export async function recordOperationStatus(
  db: Db,
  target: { sessionId: string; operationId: string },
  report: StatusReport,
  source: StatusSource,
): Promise<boolean> {
  return (await recordStatus(db, target, report, source)).changed;
}

/**
 * recordOperationStatus, answering also the session as it stands once the report is applied or
 * not (the row it locked): undefined when the session no longer holds that operation.
 */
export async function recordStatus(
  db: Db,
  target: { sessionId: string; operationId: string },
  report: StatusReport,
  source: StatusSource,
): Promise<{ changed: boolean; session: CheckoutSession | undefined }> {
  const { sessionId, operationId } = target;
  return outboxTransaction(db, async (tx) => {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.operationId, operationId)))
      .for("update");
    if (!row || !isNewerStatus(row, report)) return { changed: false, session: row };
    const updated = await applyStatus(tx, row, report, source);
    // The partner is told of each state the session reaches, once: the outbox row is written in this
    // same transaction, so a change is never applied without its notification (or the reverse).
    if (sessionState(updated) !== sessionState(row)) await enqueueNotification(tx, updated);
    return { changed: true, session: updated };
  });
}

/**
 * The operation just created, attached to the session with its first status, the partner told of
 * the state that makes: one transaction, its attach one statement (operation-link.ts, attachedRow).
 * When nothing was attached, why (attachOperation's answers); `unchanged` (a concurrent submit
 * attached it first) still records the status, forward only.
 */
export async function attachOperationWithStatus(
  db: Db,
  target: { sessionId: string; operationId: string; clientHash: string },
  report: StatusReport,
  source: StatusSource,
): Promise<"attached" | "unchanged" | "elsewhere"> {
  const updatedAt = new Date(report.updatedAt);
  const attached = await outboxTransaction(db, async (tx) => {
    const row = await attachedRow(tx, target, { status: report.status, updatedAt });
    if (!row) return false;
    await tx.insert(sessionStatusHistory).values({ sessionId: row.id, status: report.status, source, operationUpdatedAt: updatedAt });
    // The row before: the same, with no operation (the attach's condition).
    const before = { ...row, operationStatus: null, operationUpdatedAt: null };
    if (sessionState(row) !== sessionState(before)) await enqueueNotification(tx, row);
    return true;
  });
  if (attached) return "attached";
  const why = await whyNotAttached(db, target.sessionId, target.operationId);
  if (why === "unchanged") await recordOperationStatus(db, target, report, source);
  return why;
}

export async function statusHistory(db: Db, sessionId: string) {
  return db.select().from(sessionStatusHistory).where(eq(sessionStatusHistory.sessionId, sessionId)).orderBy(asc(sessionStatusHistory.id));
}
