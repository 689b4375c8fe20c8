import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffSessions, staffUsers, type PartnerRow } from "@/lib/db/schema";
import { dummyPasswordHash, verifyPassword } from "./passwords";
import { clearFailures, emailKey, ipKey, LOGIN_LIMITS, lockedUntil, normalizeEmail, recordFailure } from "./rate-limit";
import { loggerFor } from "@/lib/logger";

/**
 * Staff sign-in and sessions, on the database alone (the cookie is the app layer's business, in
 * `staff.ts`). The cookie carries a random 32-byte token; the table keeps only its SHA-256, so a
 * leaked table opens no session. Sessions last 8 hours; signing out deletes the row.
 */

export const STAFF_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

export type StaffUser = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

export interface StaffSession {
  session: StaffSessionRow;
  user: Pick<StaffUser, "id" | "email" | "name" | "partnerId">;
  partner: PartnerRow;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Opens a session for the user; returns the token for the cookie (never stored as such). */
export async function createStaffSession(db: Db, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(staffSessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + STAFF_SESSION_TTL_MS),
    createdAt: now,
  });
  return token;
}

/** The live session of this token with its user and partner; undefined when unknown or expired. */
export async function findStaffSession(db: Db, token: string | undefined, now = new Date()): Promise<StaffSession | undefined> {
  if (!token || token.length < 20 || token.length > 200) return undefined;
  const [row] = await db
    .select({ session: staffSessions, user: staffUsers, partner: partners })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .innerJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(and(eq(staffSessions.tokenHash, hashToken(token)), gt(staffSessions.expiresAt, now)))
    .limit(1);
  if (!row) return undefined;
  const { id, email, name, partnerId } = row.user;
  return { session: row.session, user: { id, email, name, partnerId }, partner: row.partner };
}

export async function deleteStaffSession(db: Db, token: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)));
}

/** Expired sessions are useless; they are cleared when someone signs in. */
export async function deleteExpiredStaffSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(staffSessions).where(lte(staffSessions.expiresAt, now));
}

/** The agency a group key's staff member works on, kept with the session. */
export async function setStaffSessionAgency(db: Db, token: string, agencyId: number): Promise<void> {
  await db
    .update(staffSessions)
    .set({ agencyId })
    .where(eq(staffSessions.tokenHash, hashToken(token)));
}

export type SignInResult = { ok: true; token: string; userId: string } | { ok: false; reason: "invalid" | "locked" };

/**
 * Checks the e-mail and password, under the rate limit. The answer never says whether the e-mail
 * exists: an unknown e-mail is checked against a dummy hash (same time) and counted like any other.
 */
export async function signIn(db: Db, input: { email: string; password: string; ip: string }, now = new Date()): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const keys = { email: emailKey(email), ip: ipKey(input.ip) };
  if (await lockedUntil(db, [keys.email, keys.ip], now)) return { ok: false, reason: "locked" };

  const [user] = await db.select().from(staffUsers).where(eq(staffUsers.email, email)).limit(1);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !matches) {
    // One after the other: PGlite runs one transaction at a time anyway.
    const emailLocked = await recordFailure(db, keys.email, LOGIN_LIMITS.perEmail, now);
    const ipLocked = await recordFailure(db, keys.ip, LOGIN_LIMITS.perIp, now);
    const reason = emailLocked || ipLocked ? "locked" : "invalid";
    // Neither the e-mail nor the password: whether the account exists is no log reader's business either.
    loggerFor("backoffice").info({ reason }, "backoffice: a sign-in failed");
    return { ok: false, reason };
  }

  await clearFailures(db, keys.email);
  await deleteExpiredStaffSessions(db, now);
  loggerFor("backoffice").info({ userId: user.id }, "backoffice: signed in");
  return { ok: true, token: await createStaffSession(db, user.id, now), userId: user.id };
}
