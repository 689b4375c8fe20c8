import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { loginAttempts } from "@/lib/db/schema";

/**
 * Failed sign-ins, counted in the database (so every instance shares the count) per e-mail and per
 * client IP: 5 failures within 15 minutes for one e-mail, or 20 from one IP, lock that key for 15
 * minutes. Unknown e-mails are counted like known ones, so a lock never tells whether an account
 * exists.
 */

export const LOGIN_LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  perEmail: 5,
  perIp: 20,
} as const;

export function emailKey(email: string): string {
  return `email:${normalizeEmail(email)}`;
}

export function ipKey(ip: string): string {
  return `ip:${ip}`;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The client's IP: the first entry of X-Forwarded-For (set by the proxy in front), else "unknown". */
export function clientIp(forwardedFor: string | null | undefined): string {
  const first = forwardedFor?.split(",")[0]?.trim();
  return first && first.length <= 100 ? first : "unknown";
}

/** When the first of these keys that is locked stops being locked; undefined when none is. */
export async function lockedUntil(db: Db, keys: readonly string[], now = new Date()): Promise<Date | undefined> {
  const rows = await db
    .select()
    .from(loginAttempts)
    .where(inArray(loginAttempts.key, [...keys]));
  const locks = rows.flatMap((row) => (row.lockedUntil && row.lockedUntil > now ? [row.lockedUntil] : []));
  return locks.sort((a, b) => b.getTime() - a.getTime())[0];
}

/**
 * Counts one failure for `key`; at `limit` failures in the window the key is locked. A window that
 * has passed (and so a lock that has lapsed) starts the count again. Row-locked, so failures arriving
 * together on several instances are all counted.
 *
 * @returns whether the key is now locked.
 */
export async function recordFailure(db: Db, key: string, limit: number, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.insert(loginAttempts).values({ key, failures: 0, windowStart: now }).onConflictDoNothing();
    const [row] = await tx.select().from(loginAttempts).where(eq(loginAttempts.key, key)).for("update");
    if (!row) throw new Error("login attempt row missing after its insert");
    // A lock starts inside its window and lasts as long as one, so once it lapses the window is over too.
    const fresh = row.windowStart.getTime() <= now.getTime() - LOGIN_LIMITS.windowMs;
    const failures = fresh ? 1 : row.failures + 1;
    const locked = failures >= limit;
    await tx
      .update(loginAttempts)
      .set({
        failures,
        windowStart: fresh ? now : row.windowStart,
        lockedUntil: locked ? new Date(now.getTime() + LOGIN_LIMITS.lockMs) : fresh ? null : row.lockedUntil,
      })
      .where(eq(loginAttempts.key, key));
    return locked;
  });
}

/** A successful sign-in forgets the e-mail's failures (not the IP's: one good account must not reset them). */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
}
