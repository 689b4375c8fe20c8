import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./connection";
import { leases } from "./schema";

/**
 * Named leases: the one holder of a lease may do what it names, on any instance, until it lapses
 * (a holder that died lets go by itself). The reconciler holds `reconciler`; a refund in flight
 * holds `refund:{operationId}` (lib/money-moves/refund.ts).
 */

/**
 * Takes (or renews) a named lease for `holder`; false when another holder's lease is still running.
 * One statement, so two instances can never both get it.
 */
export async function acquireLease(db: Db, name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const rows = await db
    .insert(leases)
    .values({ name, holder, expiresAt })
    .onConflictDoUpdate({
      target: leases.name,
      set: { holder, expiresAt },
      setWhere: sql`${leases.expiresAt} <= ${now.toISOString()}::timestamptz or ${leases.holder} = ${holder}`,
    })
    .returning({ holder: leases.holder });
  return rows.length > 0;
}

/** Gives up a lease this holder has, so another takes it at once. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<boolean> {
  const rows = await db
    .delete(leases)
    .where(and(eq(leases.name, name), eq(leases.holder, holder)))
    .returning({ name: leases.name });
  return rows.length > 0;
}
