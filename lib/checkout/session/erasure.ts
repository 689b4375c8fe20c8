import "server-only";
import { and, eq } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { apiSecretAuditDetails, recordAudit, type SecretCreator } from "@/lib/audit/audit-log";
import type { Db } from "@/lib/db";
import { checkoutSessions } from "@/lib/db/schema";
import { loggerFor } from "@/lib/logger";
import { customerDataErasedAt, eraseOrMarkCustomerData } from "./customer-store";
import { erasureDecision, secondsUntil } from "./erasure-rule";
import { enqueueErasureNotification, outboxTransaction } from "./outbox";
import type { CheckoutSession } from "./session-state";

export { erasureDecision, ERASURE_RETRY_DELAY_MS, type ErasureDecision } from "./erasure-rule";

/**
 * Erasing one session's customer data: the one operation the partner's API, staff and the
 * retention sweep all go through. In one transaction, holding the session's row: the rule
 * (erasure-rule.ts: not while the outcome is open), the erasure (customer-store.ts), and the
 * partner's `checkout.session.customer_data_erased` notification, once per session. Then the audit
 * event, with who asked and the session id: never the data. What stays is the accounting record:
 * the session, its booking reference, amounts, plan, states and dates.
 */

const log = loggerFor("checkout");

/** Who asked for the erasure. */
export type ErasureRequester =
  | { kind: "staff"; staffId: string; staffName: string }
  | { kind: "api"; secretName: string; secretId?: string; secretCreatedBy?: SecretCreator }
  | { kind: "retention" };

export interface ErasureRequest {
  sessionId: string;
  /** The session's partner: another partner's session is "not found". */
  partnerId: string;
  by: ErasureRequester;
  /** The requester's address, for the audit log (staff and the API). */
  ip?: string | null;
  now?: Date;
}

export interface ErasureResult {
  /** `already_erased`: a repeat; nothing changed, no second notification. */
  outcome: "erased" | "already_erased";
  session: CheckoutSession;
  /** When the data was erased (the first time, on a repeat). */
  erasedAt: Date;
}

/**
 * Erases the session's customer data, or says it was erased before. Refuses with `not_found`
 * (no such session of this partner) or `customer_data_in_use` (409, `retryAfterS` until the time
 * the rule gives). An erasure by the retention sweep is audited by the sweep, as a count.
 */
export async function eraseSessionCustomerData(
  db: Db,
  { sessionId, partnerId, by, ip = null, now = new Date() }: ErasureRequest,
): Promise<ErasureResult> {
  const result = await outboxTransaction(db, async (tx) => {
    const [session] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.partnerId, partnerId)))
      .for("update");
    if (!session) throw new AppError("not_found", "No such checkout session");
    const decision = erasureDecision(session, now);
    if (!decision.allowed) {
      throw new AppError(
        "customer_data_in_use",
        `The customer's data is in use while the session is ${decision.state}: try again after ${decision.retryAt.toISOString()}`,
        { retryAfterS: secondsUntil(decision.retryAt, now), state: decision.state },
      );
    }
    const outcome = await eraseOrMarkCustomerData(tx, sessionId, now);
    // Written with the first erasure only; the outbox's (session, subject) key keeps it to one.
    if (outcome === "erased") await enqueueErasureNotification(tx, session, now, now);
    return { outcome, session };
  });
  const erasedAt = result.outcome === "erased" ? now : await erasedAtOf(db, sessionId, now);
  if (result.outcome === "erased" && by.kind !== "retention") {
    await recordAudit(
      db,
      {
        kind: "customer_data_erased",
        result: "ok",
        partnerId,
        staff: by.kind === "staff" ? { id: by.staffId, name: by.staffName } : null,
        apiActor: by.kind === "api" ? by.secretName : null,
        operationId: result.session.operationId,
        ip,
        details: {
          sessionId,
          bookingReference: result.session.bookingReference,
          ...(by.kind === "api" && by.secretId ? apiSecretAuditDetails(by.secretId, by.secretCreatedBy) : {}),
        },
      },
      now,
    );
  }
  if (result.outcome === "erased") log.info({ sessionId, partnerId, by: by.kind }, "customer data erased");
  return { ...result, erasedAt };
}

async function erasedAtOf(db: Db, sessionId: string, fallback: Date): Promise<Date> {
  return (await customerDataErasedAt(db, [sessionId])).get(sessionId) ?? fallback;
}
