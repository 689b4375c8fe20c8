import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import type { Db } from "@/lib/db";
import { preparedPerDb } from "@/lib/db/prepared";
import { checkoutSessions } from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { rememberFrameAncestors } from "@/lib/security/headers/frame-ancestors";
import { isAllowedReturnUrl, returnUrlOffOrigins, type Partner } from "@/lib/partners/partners";
import { bookingHash, type CreateSessionInput } from "./booking";
import { storePrefill } from "./customer-store";
import { activeTraceparent, noteSessionOnSpan } from "@/lib/tracing/spans";
import { SESSION_TTL_MS, STATE_OF_STATUS, type CheckoutSession, type SessionState } from "./session-state";

/**
 * The checkout sessions' store: opening a session and reading it in the database. What is written
 * as it moves on (the operation's status, the plan request, not eligible, a cancel) is
 * session-status.ts's; what a state means, and which report is newer, are the rules of
 * session-state.ts.
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
