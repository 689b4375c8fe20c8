import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, notExists, notInArray, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import type { Db } from "@/lib/db";
import {
  SESSION_STATES,
  type SessionFinancingStatus,
  type SessionState,
  type StatusSource,
  type StoredPlan,
} from "@/lib/vocabulary/session";
import type { SameType } from "@/lib/vocabulary/same-type";
import { preparedPerDb } from "@/lib/db/prepared";
import {
  checkoutSessions,
  customerData,
  partnerNotifications,
  replacedOperations,
  sessionStatusHistory,
  type CheckoutSessionRow,
} from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import type { FinancialOffer } from "@/lib/financing/types";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import type { Locale } from "@/lib/i18n/locales";
import type { NotificationPayload } from "../api/api-schemas";
import { bookingHash, type CreateSessionInput } from "./booking";
import type { CustomerDraft } from "./customer";
import { isAllowedReturnUrl, type Partner } from "@/lib/partners/partners";

/** How long a customer has to finish once the partner opened the session. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export type CheckoutSession = CheckoutSessionRow;

// A session's states and sources are the domain vocabulary's (lib/vocabulary/session.ts).
export type { SessionFinancingStatus, SessionState, StatusSource };

const STATE_OF_STATUS: Record<OperationStatus, SessionState> = {
  GENERATED: "choosing",
  PENDING: "choosing",
  CLIENT_REQUESTED: "pending",
  PENDING_RESPONSE: "pending",
  FAVORABLE: "approved",
  CONFIRMED: "confirmed",
  FINISHED: "confirmed",
  REFUSED: "refused",
  ERROR: "error",
  CANCELLED: "cancelled",
  EXPIRED: "expired",
  REFUNDED: "refunded",
};

/** The states in which the customer's outcome is not known yet. */
const UNDECIDED_STATES: readonly SessionState[] = ["open", "choosing", "pending"];

/** States in which the customer's outcome is known: the status page stops polling. */
export const FINAL_STATES: readonly SessionState[] = SESSION_STATES.filter((state) => !UNDECIDED_STATES.includes(state));

export function sessionState(
  session: Pick<CheckoutSession, "operationStatus" | "expiresAt" | "financingStatus" | "notEligibleAt" | "cancelledAt">,
  now = new Date(),
): SessionState {
  // Final once said (markNotEligible): the operation's later statuses (it expires, or is
  // cancelled, at the partner API) are kept, but no longer move the session.
  if (session.notEligibleAt) return "not_eligible";
  if (session.operationStatus) {
    const state = STATE_OF_STATUS[session.operationStatus] ?? "error";
    // A provider accepted the request: the customer is at its checkout, whatever status we last read.
    return state === "choosing" && session.financingStatus === "REQUESTED" ? "pending" : state;
  }
  if (session.cancelledAt) return "cancelled";
  return session.expiresAt.getTime() <= now.getTime() ? "expired" : "open";
}

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

export function isFinal(state: SessionState): boolean {
  return FINAL_STATES.includes(state);
}

/**
 * Statuses by how far along they are, to order two reports with the same updatedAt (the API can
 * move FAVORABLE -> CONFIRMED within one second): the further one wins.
 */
const STATUS_RANK: Record<OperationStatus, number> = {
  GENERATED: 0,
  PENDING: 1,
  CLIENT_REQUESTED: 2,
  PENDING_RESPONSE: 3,
  FAVORABLE: 4,
  ERROR: 5,
  CONFIRMED: 6,
  REFUSED: 6,
  CANCELLED: 7,
  EXPIRED: 7,
  REFUNDED: 8,
  FINISHED: 8,
};

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
      fields: [{ field: "returnUrl", message: "must be on one of the partner's allowed origins" }],
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
      })
      .onConflictDoNothing({ target: [checkoutSessions.partnerId, checkoutSessions.bookingReference] })
      .returning();
    if (rows.length > 0 && input.customer) {
      await tx.insert(customerData).values({ sessionId: id, data: input.customer, submitted: false });
    }
    return rows[0];
  });
  if (inserted) return { session: inserted, created: true };

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
const draftBySession = preparedPerDb((db) =>
  db
    .select()
    .from(customerData)
    .where(eq(customerData.sessionId, sql.placeholder("sessionId")))
    .limit(1)
    .prepare("draft_by_session"),
);

export async function getSession(db: Db, id: string): Promise<CheckoutSession | undefined> {
  if (!isCheckoutSessionId(id)) return undefined;
  const [row] = await sessionById(db).execute({ id });
  return row;
}

export async function requireSession(db: Db, id: string): Promise<CheckoutSession> {
  const session = await getSession(db, id);
  if (!session) throw new AppError("not_found", "This checkout does not exist");
  return session;
}

export async function getSessionByOperation(db: Db, operationId: string): Promise<CheckoutSession | undefined> {
  const [row] = await sessionByOperation(db).execute({ operationId });
  return row;
}

export interface StoredCustomerData {
  draft: CustomerDraft;
  submitted: boolean;
  /** The hash of the submitting browser's token (lib/checkout/session/customer-editor.ts); null before a submit. */
  editorTokenHash: string | null;
  corrections: number;
}

export async function getCustomerDraft(db: Db, sessionId: string): Promise<StoredCustomerData | undefined> {
  const [row] = await draftBySession(db).execute({ sessionId });
  return row && { draft: row.data, submitted: row.submitted, editorTokenHash: row.editorTokenHash, corrections: row.corrections };
}

/**
 * Stores the submitted data, bound to the browser holding the token whose hash is given: only while
 * nothing was submitted yet (the partner's prefill is replaced), or by that same browser. False when
 * another browser's submit is stored (the caller refuses this one).
 */
export async function saveCustomerData(db: Db, sessionId: string, data: CustomerDraft, editorTokenHash: string): Promise<boolean> {
  const rows = await db
    .insert(customerData)
    .values({ sessionId, data, submitted: true, editorTokenHash })
    .onConflictDoUpdate({
      target: customerData.sessionId,
      set: { data, submitted: true, editorTokenHash, updatedAt: new Date() },
      setWhere: or(eq(customerData.submitted, false), eq(customerData.editorTokenHash, editorTokenHash)),
    })
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}

/**
 * Counts one correction for the browser that submitted the data, if the session has corrections
 * left: one statement, so concurrent posts cannot all pass the cap. False: none left (or not that browser).
 */
export async function reserveCorrection(db: Db, sessionId: string, editorTokenHash: string, max: number): Promise<boolean> {
  const rows = await db
    .update(customerData)
    .set({ corrections: sql`${customerData.corrections} + 1` })
    .where(and(eq(customerData.sessionId, sessionId), eq(customerData.editorTokenHash, editorTokenHash), lt(customerData.corrections, max)))
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}

/**
 * Links the operation to the session, once: a second, concurrent submit finds it set
 * (`unchanged`). `elsewhere`: another session holds that operation, or a session (this one
 * included) replaced it. The partner API's creation is idempotent per externalId and agency, so two
 * partners that share an agency and a booking reference are given the same operation, and a
 * session under a reference whose first operation was replaced is given that cancelled one: it
 * must not take it (nor see it as its own). Two such sessions attaching at the same instant: the
 * unique index refuses the second.
 */
export async function attachOperation(
  db: Db,
  sessionId: string,
  operationId: string,
  clientHash?: string,
): Promise<"attached" | "unchanged" | "elsewhere"> {
  const [holder] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.operationId, operationId), ne(checkoutSessions.id, sessionId)))
    .limit(1);
  if (holder) return "elsewhere";
  const [replaced] = await db
    .select({ id: replacedOperations.operationId })
    .from(replacedOperations)
    .where(eq(replacedOperations.operationId, operationId))
    .limit(1);
  if (replaced) return "elsewhere";
  // Not onto a session its partner cancelled meanwhile (cancelUnstartedSession): the operation
  // created for it stays GENERATED at the partner API, which expires it.
  const attached = await db
    .update(checkoutSessions)
    .set({ operationId, operationClientHash: clientHash ?? null, updatedAt: new Date() })
    .where(and(eq(checkoutSessions.id, sessionId), isNull(checkoutSessions.operationId), isNull(checkoutSessions.cancelledAt)))
    .returning({ id: checkoutSessions.id });
  return attached.length > 0 ? "attached" : "unchanged";
}

/**
 * Moves the session on to the next derived externalId (`{reference}~{n}`, booking.ts) while it has
 * no operation: the one it would use names another session's operation (attachOperation).
 */
export async function skipOperationExternalId(db: Db, sessionId: string): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ operationAttempt: sql`${checkoutSessions.operationAttempt} + 1`, updatedAt: new Date() })
    .where(and(eq(checkoutSessions.id, sessionId), isNull(checkoutSessions.operationId)));
}

/**
 * Unlinks a cancelled operation (the customer corrected their details) so that the next one can be
 * attached, and counts it: the next operation's externalId is derived from the count. Only if the
 * session still has that operation (a concurrent correction did not get there first). The session
 * is open again until the new operation exists; its history keeps the old operation's statuses, and
 * `replaced_operations` whose operation it was (operationOwners), in the same transaction.
 */
export async function detachOperation(db: Db, sessionId: string, operationId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [detached] = await tx
      .update(checkoutSessions)
      .set({
        operationId: null,
        operationClientHash: null,
        operationAttempt: sql`${checkoutSessions.operationAttempt} + 1`,
        operationStatus: null,
        operationUpdatedAt: null,
        paymentUrl: null,
        chosenOfferId: null,
        chosenPlan: null,
        financingStatus: null,
        hasAlternatives: null,
        updatedAt: new Date(),
      })
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.operationId, operationId)))
      .returning({ partnerId: checkoutSessions.partnerId });
    if (!detached) return false;
    await tx.insert(replacedOperations).values({ operationId, sessionId, partnerId: detached.partnerId });
    return true;
  });
}

/**
 * Cancels a session whose customer has not sent their data yet (no operation at the partner API):
 * its partner's cancel through the checkout sessions API. Conditional, so a customer's submit
 * attaching an operation at that moment (attachOperation) and the cancel cannot both win; the
 * partner's `cancelled` notification is written in the same transaction. Undefined when the session
 * was not open and without an operation (an expired or revoked one included).
 */
export async function cancelUnstartedSession(db: Db, sessionId: string, now = new Date()): Promise<CheckoutSession | undefined> {
  return db.transaction(async (tx) => {
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

/** Which session, of which partner, opened an operation. */
export interface OperationOwner {
  operationId: string;
  sessionId: string;
  partnerId: string;
}

/**
 * The sessions that opened these operations: the operation a session holds now, and the ones it
 * replaced (detachOperation). An operation of neither was opened by no checkout session here.
 */
export async function operationOwners(db: Db, operationIds: readonly string[]): Promise<OperationOwner[]> {
  if (operationIds.length === 0) return [];
  const ids = [...operationIds];
  const [current, replaced] = await Promise.all([
    db
      .select({ operationId: checkoutSessions.operationId, sessionId: checkoutSessions.id, partnerId: checkoutSessions.partnerId })
      .from(checkoutSessions)
      .where(inArray(checkoutSessions.operationId, ids)),
    db
      .select({
        operationId: replacedOperations.operationId,
        sessionId: replacedOperations.sessionId,
        partnerId: replacedOperations.partnerId,
      })
      .from(replacedOperations)
      .where(inArray(replacedOperations.operationId, ids)),
  ]);
  return [...current.map((row) => ({ ...row, operationId: row.operationId! })), ...replaced];
}

/** An operation's status as the partner API reported it. */
export interface StatusReport {
  status: OperationStatus;
  updatedAt: string;
}

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
  values: Partial<Pick<CheckoutSessionRow, "paymentUrl" | "chosenOfferId" | "financingStatus" | "hasAlternatives">>,
  report?: { operationId: string; status: StatusReport; source: StatusSource },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for("update");
    if (!row) return;
    let [updated] = await tx
      .update(checkoutSessions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(checkoutSessions.id, sessionId))
      .returning();
    if (report && updated!.operationId === report.operationId && isNewerStatus(updated!, report.status)) {
      updated = await applyStatus(tx, updated!, report.status, report.source);
    }
    if (sessionState(updated!) !== sessionState(row)) await enqueueNotification(tx, updated!);
  });
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Writes a newer status onto the locked row, and into its history; answers the row as written. */
async function applyStatus(tx: Tx, row: CheckoutSession, report: StatusReport, source: StatusSource): Promise<CheckoutSession> {
  const updatedAt = new Date(report.updatedAt);
  const [updated] = await tx
    .update(checkoutSessions)
    .set({ operationStatus: report.status, operationUpdatedAt: updatedAt, updatedAt: new Date() })
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
  return db.transaction(async (tx) => {
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

/** The figures of the plan the customer chose, as offered then: the status page repeats them. */
export type ChosenPlan = Omit<FinancialOffer, "id" | "extra">;
// The chosen plan is stored as it is: its shape is the database's (a change shows here).
const _chosenPlanIsStored: SameType<ChosenPlan, StoredPlan> = true;

/** An offer's figures, without its id and what the API sent beyond the contract. */
export function chosenPlanOf({ id: _id, extra: _extra, ...figures }: FinancialOffer): ChosenPlan {
  return figures;
}

/**
 * Claims the right to call POST /financing for this session: only one request at a time gets
 * it, so a double submit cannot start financing twice. Returns false when another holds it.
 * The offer is noted as the one chosen, with its figures.
 */
export async function claimFinancingStart(db: Db, sessionId: string, offer: FinancialOffer): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for("update");
    if (!row || row.financingStatus === "REQUESTED") return false;
    // A claim left by a request that died (a killed instance) lapses after a minute.
    const claimLive = row.financingStatus === "STARTING" && Date.now() - row.updatedAt.getTime() < CLAIM_TTL_MS;
    if (claimLive) return false;
    await tx
      .update(checkoutSessions)
      .set({ financingStatus: "STARTING", chosenOfferId: offer.id, chosenPlan: chosenPlanOf(offer), updatedAt: new Date() })
      .where(eq(checkoutSessions.id, sessionId));
    return true;
  });
}

const CLAIM_TTL_MS = 60_000;

/**
 * Whether a reported status is ahead of the one a session holds (by the API's updatedAt, then by how
 * far along the status is). For one operation a session's status only moves forward, so a report
 * that is not ahead of a copy of the session read earlier is not ahead of the stored one either; the
 * one way back, a corrected customer's operation detached (detachOperation), leaves a row a report
 * about the old operation must not touch, and recordOperationStatus only locks the row while it
 * holds the operation reported on.
 */
export function isNewerStatus(
  session: Pick<CheckoutSession, "operationStatus" | "operationUpdatedAt">,
  report: { status: OperationStatus; updatedAt: string },
): boolean {
  if (!session.operationUpdatedAt || !session.operationStatus) return true;
  const stored = session.operationUpdatedAt.getTime();
  const incoming = new Date(report.updatedAt).getTime();
  return incoming > stored || (incoming === stored && STATUS_RANK[report.status] > STATUS_RANK[session.operationStatus]);
}

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
  const { sessionId, operationId } = target;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.operationId, operationId)))
      .for("update");
    if (!row || !isNewerStatus(row, report)) return false;
    const updated = await applyStatus(tx, row, report, source);
    // The partner is told of each state the session reaches, once: the outbox row is written in this
    // same transaction, so a change is never applied without its notification (or the reverse).
    if (sessionState(updated) !== sessionState(row)) await enqueueNotification(tx, updated);
    return true;
  });
}

/** Any number, as long as nothing else takes this advisory lock. */
const NOTIFICATION_ORDER_LOCK_KEY = 7_305_160_041;

/**
 * Writes the notification of the state the session is in (as written in this transaction) to the
 * outbox, once per (session, state), with what GET answers for it at this moment
 * (notificationPayload). Written whether or not the partner has a notification URL: without one it
 * waits, unattempted, and goes out once a URL is saved (lib/checkout/background/notifications.ts).
 *
 * Its `seq` is the partner's event feed cursor (GET /api/events), so the sequence must be taken in
 * the order transactions commit: a transaction-scoped advisory lock, taken just before the insert
 * and held to the commit (the insert is each caller's last statement), orders the writers. Without
 * it a reader could see seq 11 committed while 10 was still to come, and skip 10 for good.
 */
async function enqueueNotification(tx: Tx, session: CheckoutSession, now = new Date()): Promise<void> {
  const payload = notificationPayload(session, now);
  await tx.execute(sql`select pg_advisory_xact_lock(${NOTIFICATION_ORDER_LOCK_KEY})`);
  await tx
    .insert(partnerNotifications)
    .values({
      id: `msg_${randomBytes(16).toString("base64url")}`,
      sessionId: session.id,
      partnerId: session.partnerId,
      state: payload.data.state,
      payload,
    })
    .onConflictDoNothing({ target: [partnerNotifications.sessionId, partnerNotifications.state] });
}

/**
 * How far back the expiry sweep looks: sessions live 24 hours, and one that expired while no
 * instance ran (a long outage) is still announced if it expired within this window.
 */
export const EXPIRY_SWEEP_WINDOW_MS = 48 * 3_600_000;

/**
 * A session whose customer never got as far as an operation expires by the clock alone (no status
 * reports it): writes the `expired` notification of each such session that expired within the window
 * and has none yet, oldest first. Run by the reconciler's lease holder; the outbox's (session, state)
 * key keeps a race with another writer to one notification. Returns how many were written.
 */
export async function notifyExpiredSessions(db: Db, now = new Date(), limit = 50): Promise<number> {
  const announced = db
    .select({ one: sql`1` })
    .from(partnerNotifications)
    .where(and(eq(partnerNotifications.sessionId, checkoutSessions.id), eq(partnerNotifications.state, "expired")));
  const expired = await db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        isNull(checkoutSessions.operationId),
        // Cancelled before it expired: it was announced as such, and ends there.
        isNull(checkoutSessions.cancelledAt),
        lte(checkoutSessions.expiresAt, now),
        gt(checkoutSessions.expiresAt, new Date(now.getTime() - EXPIRY_SWEEP_WINDOW_MS)),
        notExists(announced),
      ),
    )
    .orderBy(asc(checkoutSessions.expiresAt))
    .limit(limit);
  for (const session of expired) await db.transaction((tx) => enqueueNotification(tx, session, now));
  return expired.length;
}

/** The body of a partner notification: its schema (and documentation) is `api-schemas.ts`. */
export type { NotificationPayload };

/**
 * Where a session stands, as its partner sees it at `now`: its state, never the customer's data.
 * The one source of both the API's answer (GET /api/checkout-sessions/{id}, which adds the links
 * and dates) and the notifications, so a notification says what GET said when it was written.
 */
export function partnerSessionView(session: CheckoutSession, now = new Date()): NotificationPayload["data"] {
  const state = sessionState(session, now);
  return {
    id: session.id,
    bookingReference: session.bookingReference,
    state,
    final: isFinal(state),
    operation: session.operationId
      ? { id: session.operationId, status: session.operationStatus, updatedAt: session.operationUpdatedAt?.toISOString() ?? null }
      : null,
  };
}

/** The notification of the state the session is in at `now` (what the partner receives: see partnerSessionView). */
export function notificationPayload(session: CheckoutSession, now = new Date()): NotificationPayload {
  const data = partnerSessionView(session, now);
  return { type: `checkout.session.${data.state}`, timestamp: now.toISOString(), data };
}

export async function statusHistory(db: Db, sessionId: string) {
  return db.select().from(sessionStatusHistory).where(eq(sessionStatusHistory.sessionId, sessionId)).orderBy(asc(sessionStatusHistory.id));
}

/** The language the partner asked for, if any. */
export function sessionLocale(session: CheckoutSession): Locale | undefined {
  return session.locale === "en" || session.locale === "es" ? session.locale : undefined;
}
