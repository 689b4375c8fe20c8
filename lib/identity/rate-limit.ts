import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { loginThrottles } from "@/lib/db/schema";
import { addressBucket } from "@/lib/security/limits/address-bucket";

/**
 * Sign-in limits that hold under parallel guessing and cannot be turned against someone else:
 * - Each attempt is RESERVED before its password is checked, in one atomic statement (INSERT …
 *   ON CONFLICT DO UPDATE … RETURNING): 40 guesses sent at once get at most {@link LOGIN_LIMITS}
 *   `perPair` password checks, whatever the number of instances.
 * - The tight limit is keyed by e-mail AND client address: guessing from one address locks that
 *   address out of that account only, so nobody elsewhere can lock the owner out. Each lock lasts
 *   twice the one before, from 1 minute up to 1 hour, and all is forgotten after a day of calm or
 *   a successful sign-in.
 * - A looser limit per address alone slows down one address trying many accounts.
 * - "Address" is an IPv4 address or an IPv6 /64 (lib/security/limits/address-bucket.ts): one line holds
 *   a whole /64, and would otherwise get a fresh allowance per address.
 * - A soft ceiling per account, whatever the address, slows guessing spread over many addresses:
 *   past `perAccount` attempts in the window, the account refuses attempts ("try later") for
 *   1 minute, doubling up to 1 hour, but only from places it is not known to sign in from
 *   (known-sources.ts: where it completed both factors lately). The owner at a known place is
 *   never held back by it, and elsewhere it ends by itself: no one can lock an account out.
 * A success gives its reservations back. Unknown e-mails are counted like known ones, so a lock
 * never tells whether an account exists.
 */

export const LOGIN_LIMITS = {
  /** Attempts per (e-mail, address) before a lock. */
  perPair: 5,
  /** Attempts per address, over all e-mails, before a lock. */
  perIp: 50,
  /** Attempts per account from places it is not known at, over all addresses, before a lock. */
  perAccount: 20,
  /** Attempts older than this no longer count. */
  windowMs: 15 * 60_000,
  firstLockMs: 60_000,
  maxLockMs: 60 * 60_000,
  /** After this long without an attempt, the lock history is forgotten too. */
  forgetMs: 24 * 60 * 60_000,
} as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function pairKey(email: string, ip: string): string {
  return `pair:${addressBucket(ip)}:${normalizeEmail(email)}`;
}

export function ipKey(ip: string): string {
  return `ip:${addressBucket(ip)}`;
}

/** Keyed by e-mail, so an unknown e-mail is counted (and locked) like an account. */
export function accountKey(email: string): string {
  return `account:${normalizeEmail(email)}`;
}

export interface Reservation {
  allowed: boolean;
  /** When the key's current lock ends (set by this attempt when it was the last one allowed). */
  lockedUntil: Date | undefined;
  /** This attempt used up the key's allowance: the next one is refused until `lockedUntil`. */
  last: boolean;
}

/**
 * Reserves one attempt on `key` (counted as a failure until {@link releaseAttempt} gives it back).
 * One statement, so concurrent reservations are serialised by the row lock and each sees the
 * others' counts: locked: refused, unchanged; the limit reached: allowed one last time and locked
 * for 1 min · 2^(locks so far), at most 1 hour. `limit` is 2 or more (the first attempt never locks).
 */
export async function reserveAttempt(db: Db, key: string, limit: number, now = new Date()): Promise<Reservation> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - LOGIN_LIMITS.windowMs).toISOString()}::timestamptz`;
  const forgetBefore = sql`${new Date(now.getTime() - LOGIN_LIMITS.forgetMs).toISOString()}::timestamptz`;
  const locked = sql`(t.locked_until is not null and t.locked_until > ${at})`;
  const forgotten = sql`(t.updated_at <= ${forgetBefore})`;
  // Attempts before this one that still count (none once the window has passed).
  const previous = sql`(case when t.updated_at <= ${windowStart} then 0 else t.failures end)`;
  const lockCount = sql`(case when ${forgotten} then 0 else t.lock_count end)`;
  const reachesLimit = sql`(${previous} + 1 >= ${limit})`;
  const lockFor = sql`make_interval(secs => least(${LOGIN_LIMITS.firstLockMs / 1000} * power(2, ${lockCount}), ${LOGIN_LIMITS.maxLockMs / 1000}))`;

  const result = await db.execute(sql`
    insert into login_throttles as t (key, failures, lock_count, locked_until, last_allowed, updated_at)
    values (${key}, 1, 0, null, true, ${at})
    on conflict (key) do update set
      failures = case when ${locked} then t.failures when ${reachesLimit} then 0 else ${previous} + 1 end,
      lock_count = case when ${locked} then t.lock_count when ${reachesLimit} then ${lockCount} + 1 else ${lockCount} end,
      locked_until = case when ${locked} then t.locked_until when ${reachesLimit} then ${at} + ${lockFor} else null end,
      last_allowed = not ${locked},
      updated_at = case when ${locked} then t.updated_at else ${at} end
    returning failures, locked_until, last_allowed
  `);
  const row = rowsOf<{ locked_until: string | Date | null; last_allowed: boolean }>(result)[0];
  if (!row) throw new Error("login throttle reservation returned no row");
  const lockedUntil = row.locked_until === null ? undefined : new Date(row.locked_until);
  return { allowed: row.last_allowed, lockedUntil, last: row.last_allowed && lockedUntil !== undefined };
}

/** Gives a reservation back (the attempt succeeded): the count goes down by one, a lock stays. */
export async function releaseAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(loginThrottles)
    .set({ failures: sql`greatest(${loginThrottles.failures} - 1, 0)` })
    .where(eq(loginThrottles.key, key));
}

/** A successful sign-in forgets the (e-mail, address) pair's history, its lock included. */
export async function forgetKey(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

// postgres.js returns the rows as an array, PGlite as `{ rows }`.
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
