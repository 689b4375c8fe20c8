import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull, isNull, lte, inArray } from "drizzle-orm";
import { checkoutSessions } from "@/lib/db/schema";
import { acquireLease as acquireNamedLease, releaseLease } from "@/lib/db/leases";
import type { Db } from "@/lib/db";
import { isOpenStatus, OPEN_STATUSES } from "@/lib/financing/contract";
import { purgeExpiredIdempotencyKeys } from "../api/idempotency";
import { refreshStatus, type CheckoutContext } from "../session/flow";
import { notifyExpiredSessions } from "../session/outbox";
import { loggerFor } from "@/lib/logger";
import { purgeFullTokenBuckets } from "@/lib/security/limits/shared-token-bucket";
import { withLogContext } from "@/lib/logging/context";
import { contextFromTraceparent, inSpan, SESSION_ID_ATTRIBUTE } from "@/lib/tracing/spans";

const log = loggerFor("reconciler");

/**
 * Reconciliation: sessions whose outcome is still open a few minutes after they last changed are
 * re-checked with the conditional status call, so an outcome whose webhook never came is found.
 * With several instances, only the holder of the `reconciler` lease runs it; each round also
 * announces the sessions that expired unstarted, deletes the API's expired Idempotency-Keys and
 * the shared token buckets untouched for a day.
 */

/** How long an open outcome may go unchanged before it is checked. */
export const RECONCILE_AFTER_MS = 3 * 60_000;
const LEASE_MS = 60_000;

/** This process's name as a lease holder. */
export const INSTANCE_ID = `${process.pid}-${randomUUID().slice(0, 8)}`;

/** Takes (or renews) the named lease for `holder`, for the reconciler's LEASE_MS unless told (lib/db/leases.ts). */
export function acquireLease(db: Db, name: string, holder: string, now = new Date(), ttlMs = LEASE_MS): Promise<boolean> {
  return acquireNamedLease(db, name, holder, now, ttlMs);
}

export { releaseLease };

/** Re-checks the open sessions that are due; returns how many were checked, or null without the lease. */
export async function reconcile(
  ctx: CheckoutContext,
  options: { holder?: string; now?: Date; limit?: number } = {},
): Promise<number | null> {
  const now = options.now ?? new Date();
  if (!(await acquireLease(ctx.db, "reconciler", options.holder ?? INSTANCE_ID, now))) return null;
  const due = await ctx.db
    .select({ id: checkoutSessions.id, traceParent: checkoutSessions.traceParent })
    .from(checkoutSessions)
    .where(
      and(
        isNotNull(checkoutSessions.operationId),
        inArray(checkoutSessions.operationStatus, [...OPEN_STATUSES]),
        // Ended not eligible: final whatever its operation does next, nothing to find.
        isNull(checkoutSessions.notEligibleAt),
        lte(checkoutSessions.updatedAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .orderBy(asc(checkoutSessions.updatedAt))
    .limit(options.limit ?? 50);
  // Sessions that expired before any operation existed: no status will report it, so it is
  // announced from here (lib/checkout/session/outbox.ts).
  const expired = await notifyExpiredSessions(ctx.db, now);
  if (expired > 0) log.info({ sessions: expired }, "reconciler: expired sessions announced to their partners");
  // The API's Idempotency-Keys past their 24 hours (lib/checkout/api/idempotency.ts): housekeeping
  // that one instance does, here.
  const purged = await purgeExpiredIdempotencyKeys(ctx.db, now);
  if (purged > 0) log.info({ keys: purged }, "reconciler: expired Idempotency-Keys deleted");
  // The shared throttles' buckets nobody took from for a day: full again, as no row is.
  const buckets = await purgeFullTokenBuckets(ctx.db, now);
  if (buckets > 0) log.info({ buckets }, "reconciler: token buckets full again deleted");
  if (due.length > 0) log.info({ sessions: due.length }, "reconciler: re-checking open outcomes");
  for (const { id, traceParent } of due) {
    // A child of the session's trace: the outcome found here is told with the rest of the checkout.
    const before = await inSpan(
      "checkout.reconcile.session",
      { parent: contextFromTraceparent(traceParent), attributes: { [SESSION_ID_ATTRIBUTE]: id } },
      () => withLogContext({ sessionId: id }, () => refreshStatus(ctx, id, "reconcile")),
    );
    // Unchanged: touch it, so the next round checks the others first and this one a few minutes later.
    if (isOpenStatus(before.operationStatus)) {
      await ctx.db.update(checkoutSessions).set({ updatedAt: now }).where(eq(checkoutSessions.id, id));
    }
  }
  return due.length;
}
