import "server-only";
import { and, eq, inArray, isNull, ne, notExists, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { checkoutSessions, replacedOperations, type CheckoutSessionRow } from "@/lib/db/schema";
import type { OperationStatus } from "@/lib/financing/contract";
import type { Tx } from "./outbox";

/**
 * Which operation at the partner API a session holds, in the database: attached once, moved on to
 * the next externalId, detached when corrected details replace it; and, from an operation, the
 * session that opened it.
 */

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
  if (await attachedRow(db, { sessionId, operationId, clientHash })) return "attached";
  return whyNotAttached(db, sessionId, operationId);
}

/** The operation's first status, written with the link (session-status.ts, attachOperationWithStatus). */
export interface FirstStatus {
  status: OperationStatus;
  updatedAt: Date;
}

/**
 * The attach in one statement, the checks of attachOperation in its condition: the row as
 * attached (with `first`, the operation's first status set too), or undefined when nothing was
 * (whyNotAttached says why). Also inside a transaction.
 */
export async function attachedRow(
  db: Db | Tx,
  target: { sessionId: string; operationId: string; clientHash?: string },
  first?: FirstStatus,
): Promise<CheckoutSessionRow | undefined> {
  const { sessionId, operationId } = target;
  // Not onto a session its partner cancelled meanwhile (cancelUnstartedSession): the operation
  // created for it stays GENERATED at the partner API, which expires it.
  const [attached] = await db
    .update(checkoutSessions)
    .set({
      operationId,
      operationClientHash: target.clientHash ?? null,
      ...(first ? { operationStatus: first.status, operationUpdatedAt: first.updatedAt } : {}),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(checkoutSessions.id, sessionId),
        isNull(checkoutSessions.operationId),
        isNull(checkoutSessions.cancelledAt),
        notExists(heldElsewhere(db, sessionId, operationId)),
        notExists(replacedOperation(db, operationId)),
      ),
    )
    .returning();
  return attached;
}

/** Why attachedRow attached nothing: the operation is another session's or replaced, or the session has one already. */
export async function whyNotAttached(db: Db, sessionId: string, operationId: string): Promise<"unchanged" | "elsewhere"> {
  const [holder] = await heldElsewhere(db, sessionId, operationId).limit(1);
  if (holder) return "elsewhere";
  const [replaced] = await replacedOperation(db, operationId).limit(1);
  return replaced ? "elsewhere" : "unchanged";
}

/** Another session holding the operation. */
function heldElsewhere(db: Db | Tx, sessionId: string, operationId: string) {
  return db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.operationId, operationId), ne(checkoutSessions.id, sessionId)))
    .$dynamic();
}

/** A session having replaced the operation (detachOperation). */
function replacedOperation(db: Db | Tx, operationId: string) {
  return db
    .select({ id: replacedOperations.operationId })
    .from(replacedOperations)
    .where(eq(replacedOperations.operationId, operationId))
    .$dynamic();
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
