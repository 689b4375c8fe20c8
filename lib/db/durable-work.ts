import { and, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * Durable work kept in a table (webhook events to process, partner notifications to send): every
 * row is done once, by one instance at a time, and retried with backoff until it is. A row is
 * claimed by one UPDATE that locks it for a while and counts the attempt, and only if it is not
 * done and no live lock holds it, so two instances never work on one row at once; the lock of an
 * instance that died runs out, and the row is due again. The queries stay with their tables (typed
 * per table); what a row's state means, the lock and the backoff are decided here, once.
 *
 * Pure: it builds conditions and values, the callers run them (no `server-only` needed).
 */

export interface DurableWorkColumns {
  /** Set when the work is done (processed, delivered); null until then. */
  doneAt: PgColumn;
  attempts: PgColumn;
  lockedUntil: PgColumn;
  nextAttemptAt: PgColumn;
}

export interface DurableWorkPolicy {
  /** How long a claim holds a row before another instance may take it over. */
  lockMs: number;
  /** The wait after the 1st, 2nd… failed attempt; the last one repeats. */
  retryDelaysMs: readonly [number, ...number[]];
}

/** The wait before the next attempt, after `attempts` attempts (the last delay repeats). */
export function retryDelay(retryDelaysMs: DurableWorkPolicy["retryDelaysMs"], attempts: number): number {
  return retryDelaysMs[Math.min(attempts, retryDelaysMs.length) - 1] ?? retryDelaysMs.at(-1)!;
}

export function durableWork(columns: DurableWorkColumns, policy: DurableWorkPolicy) {
  /** Not done, and no live lock on it: a claim may take it. */
  const claimable = (now: Date): SQL => and(isNull(columns.doneAt), or(isNull(columns.lockedUntil), lte(columns.lockedUntil, now)))!;
  return {
    claimable,
    /** Claimable, and its next attempt has come. */
    due: (now: Date): SQL => and(claimable(now), lte(columns.nextAttemptAt, now))!,
    /** A claim's values: locked for `lockMs` from now, one attempt more. */
    claim: (now: Date) => ({ lockedUntil: new Date(now.getTime() + policy.lockMs), attempts: sql<number>`${columns.attempts} + 1` }),
    /** A claim given back unattempted (the process is stopping): unlocked, the attempt not counted. */
    unclaim: () => ({ lockedUntil: null, attempts: sql<number>`${columns.attempts} - 1` }),
    /** Done: unlocked and no error left (the caller sets its done column, and what it learned). */
    done: () => ({ lockedUntil: null, lastError: null }),
    /** A failed attempt: unlocked, the error kept (cut to 500 characters), the next one after the backoff. */
    postpone: (attempts: number, error: string, now: Date) => ({
      lockedUntil: null,
      lastError: error.slice(0, 500),
      nextAttemptAt: new Date(now.getTime() + retryDelay(policy.retryDelaysMs, attempts)),
    }),
  };
}
