import "server-only";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
import { recordAudit } from "@/lib/audit/audit-log";
import { getEnv } from "@/lib/config/env";
import { checkoutSessions, customerData, partners } from "@/lib/db/schema";
import { OPEN_STATUSES } from "@/lib/financing/contract";
import { loggerFor } from "@/lib/logger";
import { metrics } from "@/lib/ops/metrics";
import { eraseSessionCustomerData } from "../session/erasure";
import type { CheckoutContext } from "../session/flow";
import { acquireLease, INSTANCE_ID } from "./reconciler";

const log = loggerFor("retention");

/**
 * Customers' data retention: a session's customer data is erased once its partner's retention
 * period (partners.customer_data_retention_days, capped by CUSTOMER_DATA_RETENTION_MAX_DAYS) has
 * passed since the session ended: since it reached its final state (its last change), or, left
 * unfinished, since it expired. Run by the background work under the `customer-data-retention`
 * lease (one instance at a time), in batches, each session through eraseSessionCustomerData, so
 * its partner is notified; audited once per run that erased something, as a count (never whose).
 * What stays is the accounting record: the session, booking reference, amounts, plan, states, dates.
 */

export const RETENTION_LEASE = "customer-data-retention";
const LEASE_MS = 5 * 60_000;
const BATCH = 100;
/** At most this many batches a run: the rest is taken up by the next run. */
const MAX_BATCHES = 20;

/** The retention period applied to a partner: its own, cut to the platform's ceiling, at least a day. */
export function retentionDays(partnerDays: number, maxDays: number): number {
  return Math.max(1, Math.min(partnerDays, maxDays));
}

/**
 * When a session ended, in SQL: no operation, its cancel or else its expiry (in the future while it
 * is open: never due); not eligible, when said; an operation still open, its expiry (unfinished);
 * any other, its last change (when the final status was recorded).
 */
const endedAt = sql`case
  when ${checkoutSessions.operationStatus} is null then coalesce(${checkoutSessions.cancelledAt}, ${checkoutSessions.expiresAt})
  when ${checkoutSessions.notEligibleAt} is not null then ${checkoutSessions.notEligibleAt}
  when ${checkoutSessions.operationStatus} in (${sql.join(
    OPEN_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  )}) then ${checkoutSessions.expiresAt}
  else ${checkoutSessions.updatedAt} end`;

export interface RetentionOptions {
  holder?: string;
  now?: Date;
  maxDays?: number;
  batch?: number;
}

/**
 * Erases the customer data whose retention period has passed; returns how many sessions were
 * erased, or null when another instance holds the lease.
 */
export async function eraseRetainedCustomerData(ctx: Pick<CheckoutContext, "db">, options: RetentionOptions = {}): Promise<number | null> {
  const now = options.now ?? new Date();
  if (!(await acquireLease(ctx.db, RETENTION_LEASE, options.holder ?? INSTANCE_ID, now, LEASE_MS))) return null;
  const maxDays = options.maxDays ?? getEnv().customerDataRetentionMaxDays;
  const batch = options.batch ?? BATCH;
  const days = sql`greatest(1, least(${partners.customerDataRetentionDays}, ${maxDays}))`;
  let erased = 0;
  let inUse = 0;
  const erasedPartners = new Set<string>();
  let after = "";
  for (let round = 0; round < MAX_BATCHES; round++) {
    const due = await ctx.db
      .select({ sessionId: checkoutSessions.id, partnerId: checkoutSessions.partnerId })
      .from(customerData)
      .innerJoin(checkoutSessions, eq(checkoutSessions.id, customerData.sessionId))
      .innerJoin(partners, eq(partners.id, checkoutSessions.partnerId))
      .where(
        and(
          isNull(customerData.erasedAt),
          gt(checkoutSessions.id, after),
          sql`${endedAt} + make_interval(days => ${days}) <= ${now.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(checkoutSessions.id))
      .limit(batch);
    for (const { sessionId, partnerId } of due) {
      try {
        const result = await eraseSessionCustomerData(ctx.db, { sessionId, partnerId, by: { kind: "retention" }, now });
        if (result.outcome === "erased") {
          erased += 1;
          erasedPartners.add(partnerId);
        }
      } catch (error) {
        // Its outcome is open again (a late status): taken up by a later run.
        if (!(error instanceof AppError && error.code === "customer_data_in_use")) throw error;
        inUse += 1;
      }
    }
    if (due.length < batch) break;
    after = due[due.length - 1]!.sessionId;
  }
  if (erased > 0) metrics().customerDataRetention.inc({ result: "erased" }, erased);
  if (inUse > 0) metrics().customerDataRetention.inc({ result: "in_use" }, inUse);
  if (erased > 0) {
    await recordAudit(
      ctx.db,
      { kind: "customer_data_retention_erased", result: "ok", details: { sessions: erased, partners: erasedPartners.size } },
      now,
    );
    log.info({ erased, inUse, partners: erasedPartners.size }, "retention: customers' data erased");
  }
  return erased;
}
