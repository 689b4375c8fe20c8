import type { SameType } from "@/lib/vocabulary/same-type";
import {
  CUSTOMER_DATA_ERASED_EVENT,
  SESSION_STATES,
  type SessionFinancingStatus,
  type SessionState,
  type StatusSource,
  type StoredPlan,
} from "@/lib/vocabulary/session";
import type { CheckoutSessionRow } from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import type { FinancialOffer } from "@/lib/financing/types";
import type { Locale } from "@/lib/i18n/locales";
import type { NotificationPayload } from "../api/api-schemas";

/**
 * A checkout session's rules, without the database: the state it is in (derived from the
 * operation's status and its own dates), which states are final, which of two status reports is
 * ahead, and what its partner is shown of it. The store (sessions.ts, session-status.ts) and the
 * outbox (outbox.ts) apply them; pages and the API read them.
 */

/** How long a customer has to finish once the partner opened the session. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export type CheckoutSession = CheckoutSessionRow;

// A session's states and sources are the domain vocabulary's (lib/vocabulary/session.ts).
export type { SessionFinancingStatus, SessionState, StatusSource };

/** The state each operation status puts a session in (sessionStateCondition is its SQL twin). */
export const STATE_OF_STATUS: Readonly<Record<OperationStatus, SessionState>> = {
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

/** The figures of the plan the customer chose, as offered then: the status page repeats them. */
export type ChosenPlan = Omit<FinancialOffer, "id" | "extra">;
// The chosen plan is stored as it is: its shape is the database's (a change shows here).
const _chosenPlanIsStored: SameType<ChosenPlan, StoredPlan> = true;

/** An offer's figures, without its id and what the API sent beyond the contract. */
export function chosenPlanOf({ id: _id, extra: _extra, ...figures }: FinancialOffer): ChosenPlan {
  return figures;
}

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

/** The notification that the session's customer data was erased at `erasedAt`: the session as GET says it, and when. */
export function erasureNotificationPayload(session: CheckoutSession, erasedAt: Date, now = new Date()): NotificationPayload {
  const data = { ...partnerSessionView(session, now), customerDataErasedAt: erasedAt.toISOString() };
  return { type: `checkout.session.${CUSTOMER_DATA_ERASED_EVENT}`, timestamp: now.toISOString(), data };
}

/** The language the partner asked for, if any. */
export function sessionLocale(session: CheckoutSession): Locale | undefined {
  return session.locale === "en" || session.locale === "es" ? session.locale : undefined;
}
