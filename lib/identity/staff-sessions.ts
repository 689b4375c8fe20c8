import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lte, ne, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import type { PartnerStaffRole } from "@/lib/vocabulary/staff";
import { partners, staffSessions, staffUsers, type PartnerRow } from "@/lib/db/schema";
import { asAccount, hasSecondFactor, type OperatorAccount, type PartnerStaffAccount } from "./accounts";
import type { Tx } from "./two-factor";

/**
 * Staff sessions, on the database alone (the cookie is the app layer's business, in `staff.ts`).
 * The cookie carries a random 32-byte token; the table keeps only its SHA-256, so a leaked table
 * opens no session. A session lasts 8 hours at most and ends after 30 minutes without a request;
 * signing out deletes the row. A password opens a session that waits for the second factor: see
 * {@link sessionStage}. Every change of level (password, second factor, enrolment) gives the
 * session a new token (renewSessionToken), the old one dead.
 *
 * The same sessions serve a partner's staff and the platform's operators (no partner); a disabled
 * account, or the staff of a disabled partner, gets no session.
 */

export const STAFF_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
export const STAFF_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;
/** Wrong second-factor codes on one session before it ends (the password is asked again, under its limit). */
export const MAX_CODE_FAILURES = 5;

export type StaffUser = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

type SessionUserOf<A extends OperatorAccount | PartnerStaffAccount> = Pick<
  A,
  "id" | "email" | "name" | "partnerId" | "role" | "canRefund" | "canDataRequests"
> & {
  twoFactor: boolean;
};

/** A partner's staff member's session, with their partner. */
export interface PartnerStaffSession {
  session: StaffSessionRow;
  user: SessionUserOf<PartnerStaffAccount> & { role: PartnerStaffRole };
  partner: PartnerRow;
}

/** An operator's session: no partner. */
export interface OperatorSession {
  session: StaffSessionRow;
  user: SessionUserOf<OperatorAccount>;
  partner: null;
}

/** Anyone's session: `partner` (null for an operator) tells which. */
export type StaffSession = PartnerStaffSession | OperatorSession;

/** full: everything; code: waiting for the second factor; enrol: no second factor yet, only enrolment. */
export type SessionStage = "full" | "code" | "enrol";

export function sessionStage(found: Pick<StaffSession, "session" | "user">): SessionStage {
  if (!found.user.twoFactor) return "enrol";
  return found.session.secondFactorAt ? "full" : "code";
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface SessionOrigin {
  ip?: string;
  userAgent?: string | null;
}

/** Opens a session for the user; returns the token for the cookie (never stored as such). */
export async function createStaffSession(
  db: Db,
  userId: string,
  now = new Date(),
  options: SessionOrigin & { secondFactor?: boolean; enrolment?: StaffSessionRow["enrolment"] } = {},
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(staffSessions).values({
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + STAFF_SESSION_TTL_MS),
    createdAt: now,
    lastSeenAt: now,
    secondFactorAt: options.secondFactor ? now : null,
    enrolment: options.enrolment ?? null,
    ip: options.ip ?? null,
    userAgent: shortUserAgent(options.userAgent),
  });
  return token;
}

/**
 * Gives the session a new token (the old one opens nothing from now on) along with `changes`, in
 * one statement; returns the new token, or undefined when the session is gone.
 */
export async function renewSessionToken(
  db: Db | Tx,
  tokenHash: string,
  changes: Partial<Pick<StaffSessionRow, "secondFactorAt" | "codeFailures" | "enrolment" | "totpPendingSecret">> = {},
): Promise<string | undefined> {
  const token = randomBytes(32).toString("base64url");
  const renewed = await db
    .update(staffSessions)
    .set({ ...changes, tokenHash: hashToken(token) })
    .where(eq(staffSessions.tokenHash, tokenHash))
    .returning({ userId: staffSessions.userId });
  return renewed.length === 1 ? token : undefined;
}

/** "Firefox 132 on Windows": enough to recognise a session, not a fingerprint. */
export function shortUserAgent(ua: string | null | undefined): string | null {
  if (!ua) return null;
  const browser = /(Edg|OPR|Firefox|Chrome|Safari)\/(\d+)/.exec(ua.replace(/Version\/(\d+).*Safari/, "Safari/$1")) ?? undefined;
  const os = /Windows|Mac OS X|Android|iPhone|iPad|Linux|CrOS/.exec(ua)?.[0];
  const name = browser ? `${{ Edg: "Edge", OPR: "Opera" }[browser[1]!] ?? browser[1]} ${browser[2]}` : ua.slice(0, 40);
  return (os ? `${name} · ${os.replace("Mac OS X", "macOS")}` : name).slice(0, 80);
}

/**
 * The live session of this token with its user and partner; undefined when unknown, past its 8
 * hours or idle for 30 minutes. Seeing it counts as activity.
 */
export async function findStaffSession(db: Db, token: string | undefined, now = new Date()): Promise<StaffSession | undefined> {
  if (!token || token.length < 20 || token.length > 200) return undefined;
  const [row] = await db
    .select({ session: staffSessions, user: staffUsers, partner: partners })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(
      and(
        eq(staffSessions.tokenHash, hashToken(token)),
        gt(staffSessions.expiresAt, now),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - STAFF_IDLE_TIMEOUT_MS)),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  // Disabling ends the sessions too; this holds whatever else ended them or not.
  if (row.user.disabledAt || row.partner?.disabledAt) return undefined;
  const twoFactor = hasSecondFactor(row.user);
  // Not enrolled, and not opened for enrolment (by a link, or behind both factors): nothing.
  if (!twoFactor && !row.session.enrolment) return undefined;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.tokenHash, row.session.tokenHash));
  }
  const account = asAccount(row.user);
  const { id, email, name } = account;
  if (account.role === "operator") {
    return {
      session: row.session,
      user: { id, email, name, partnerId: null, role: "operator", canRefund: false, canDataRequests: false, twoFactor },
      partner: null,
    };
  }
  if (!row.partner) return undefined;
  return {
    session: row.session,
    user: {
      id,
      email,
      name,
      partnerId: account.partnerId,
      role: account.role,
      canRefund: account.canRefund,
      canDataRequests: account.canDataRequests,
      twoFactor,
    },
    partner: row.partner,
  };
}

/** Ends every session of the user (disabled, removed, second factor reset); returns how many ended. */
export async function deleteAllStaffSessions(db: Db | Tx, userId: string): Promise<number> {
  const gone = await db.delete(staffSessions).where(eq(staffSessions.userId, userId)).returning({ tokenHash: staffSessions.tokenHash });
  return gone.length;
}

export async function deleteStaffSession(db: Db, token: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.tokenHash, hashToken(token)));
}

/** Ends every session of the user but the one with this token; returns how many ended. */
export async function deleteOtherStaffSessions(db: Db, userId: string, keepToken: string): Promise<number> {
  const gone = await db
    .delete(staffSessions)
    .where(and(eq(staffSessions.userId, userId), ne(staffSessions.tokenHash, hashToken(keepToken))))
    .returning({ tokenHash: staffSessions.tokenHash });
  return gone.length;
}

/** The user's live sessions, newest first (for the sessions page). */
export async function listStaffSessions(db: Db, userId: string, now = new Date()): Promise<StaffSessionRow[]> {
  return db
    .select()
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.userId, userId),
        gt(staffSessions.expiresAt, now),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - STAFF_IDLE_TIMEOUT_MS)),
      ),
    )
    .orderBy(desc(staffSessions.createdAt));
}

/** Expired and idle sessions are useless; they are cleared when someone signs in. */
export async function deleteExpiredStaffSessions(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(staffSessions)
    .where(or(lte(staffSessions.expiresAt, now), lte(staffSessions.lastSeenAt, new Date(now.getTime() - STAFF_IDLE_TIMEOUT_MS))));
}

/** The agency a group key's staff member works on, kept with the session. */
export async function setStaffSessionAgency(db: Db, token: string, agencyId: number): Promise<void> {
  await db
    .update(staffSessions)
    .set({ agencyId })
    .where(eq(staffSessions.tokenHash, hashToken(token)));
}
