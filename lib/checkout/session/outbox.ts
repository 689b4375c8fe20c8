import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, lte, notExists, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { signal } from "@/lib/db/signals";
import { traceparentWithin } from "@/lib/tracing/spans";
import { checkoutSessions, partnerEventCounters, partnerNotifications } from "@/lib/db/schema";
import { CUSTOMER_DATA_ERASED_EVENT, type NotificationSubject } from "@/lib/vocabulary/session";
import { erasureNotificationPayload, notificationPayload, type CheckoutSession, type NotificationPayload } from "./session-state";

/**
 * The partner notifications' outbox: each state a session reaches is queued here, in the
 * transaction that moved the session (the store, session-status.ts), and sent later
 * (lib/checkout/background/notifications.ts).
 */

/** A transaction of the store's, which the outbox writes in. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The wake-up channel of the outbox (lib/db/signals.ts): a notification was written and committed. */
export const OUTBOX_CHANNEL = "partner_notifications";

/** The transactions that wrote a notification, until they end. */
const wroteNotification = new WeakSet<Tx>();

/**
 * A transaction that may write notifications: once it has committed, if it wrote one, delivery is
 * woken on every instance (lib/db/signals.ts), so the notification leaves at once rather than at
 * the worker's next round. Written in a plain transaction, a notification waits for that round.
 */
export async function outboxTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  let used: Tx | undefined;
  const result = await db.transaction((tx) => {
    used = tx;
    return work(tx);
  });
  if (used && wroteNotification.has(used)) signal(db, OUTBOX_CHANNEL);
  return result;
}

/**
 * Writes the notification of the state the session is in (as written in this transaction, an
 * outboxTransaction's, so that delivery is woken on its commit) to the outbox, once per (session, state), with what GET answers for it at this moment
 * (notificationPayload). Written whether or not the partner has a notification URL: without one it
 * waits, unattempted, and goes out once a URL is saved (lib/checkout/background/notifications.ts).
 *
 * Its `partnerSeq` is its position in the partner's event feed (GET /api/events), 1, 2, 3… for each
 * partner, so positions must be taken in the order transactions commit: the partner's counter row
 * (partner_event_counters), incremented just before the insert, stays locked to the commit (the
 * insert is each caller's last statement), so the partner's next writer waits there for this one
 * to end. Without it a reader could see position 11 committed while 10 was still to come, and skip
 * 10 for good. Only writers of the same partner wait for each other: the lock is the partner's row.
 */
export async function enqueueNotification(tx: Tx, session: CheckoutSession, now = new Date()): Promise<void> {
  const payload = notificationPayload(session, now);
  await enqueue(tx, session, payload.data.state, payload);
}

/**
 * Writes the notification that the session's customer data was erased (erasure.ts), once per
 * session: what GET answers for the session at `now`, with when the data was erased. Never the data.
 * False when it was written before (the erasure is a repeat).
 */
export async function enqueueErasureNotification(tx: Tx, session: CheckoutSession, erasedAt: Date, now = new Date()): Promise<boolean> {
  return enqueue(tx, session, CUSTOMER_DATA_ERASED_EVENT, erasureNotificationPayload(session, erasedAt, now));
}

/**
 * Inserts one outbox row at the partner's next feed position, its counter row locked to the commit
 * (see enqueueNotification); false when (session, subject) was there, and then the position is
 * given back (the row is still this transaction's alone), so a repeat leaves no gap.
 */
async function enqueue(tx: Tx, session: CheckoutSession, subject: NotificationSubject, payload: NotificationPayload): Promise<boolean> {
  const counter = partnerEventCounters;
  const [taken] = await tx
    .insert(counter)
    .values({ partnerId: session.partnerId, lastPosition: 1 })
    .onConflictDoUpdate({ target: counter.partnerId, set: { lastPosition: sql`${counter.lastPosition} + 1` } })
    .returning({ position: counter.lastPosition });
  const rows = await tx
    .insert(partnerNotifications)
    .values({
      id: `msg_${randomBytes(16).toString("base64url")}`,
      sessionId: session.id,
      partnerId: session.partnerId,
      partnerSeq: taken!.position,
      state: subject,
      payload,
      // Its delivery is a child of the work that wrote it when that is in the session's trace (a
      // webhook's processing, the plan chosen), else of the session's trace (a page that found the outcome).
      traceParent: traceparentWithin(session.traceParent) ?? null,
    })
    .onConflictDoNothing({ target: [partnerNotifications.sessionId, partnerNotifications.state] })
    .returning({ id: partnerNotifications.id });
  if (rows.length > 0) {
    wroteNotification.add(tx);
    return true;
  }
  await tx
    .update(counter)
    .set({ lastPosition: sql`${counter.lastPosition} - 1` })
    .where(eq(counter.partnerId, session.partnerId));
  return false;
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
  for (const session of expired) await outboxTransaction(db, (tx) => enqueueNotification(tx, session, now));
  return expired.length;
}
