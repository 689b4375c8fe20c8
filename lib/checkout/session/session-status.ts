import "server-only";
import { and, asc, eq, gt, isNull, lte, ne, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { checkoutSessions, sessionStatusHistory, type CheckoutSessionRow } from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import type { FinancialOffer } from "@/lib/financing/types";
import { activeTraceparent } from "@/lib/tracing/spans";
import { attachedRow, whyNotAttached } from "./operation-link";
import { enqueueNotification, outboxTransaction, type Tx } from "./outbox";
import { chosenPlanOf, isNewerStatus, sessionState, type CheckoutSession, type StatusSource } from "./session-state";

/**
 * What the store writes as a session moves on once it is opened: the operation's status (forward
 * only, with its history), the plan request's claim and answer, the end as not eligible, and the
 * partner's cancel before the customer sent their data. Each write that moves the session to a new
 * state queues its partner's notification in the same transaction (outbox.ts). Opening a session
 * and reading it are sessions.ts's; what a state means is session-state.ts's.
 */

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
