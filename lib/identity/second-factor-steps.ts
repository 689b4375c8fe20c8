import "server-only";
import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { staffSessions, staffUsers } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { hashPassword } from "./passwords";
import { forgetKey, LOGIN_LIMITS, releaseAttempt, reserveAttempt } from "./rate-limit";
import { rememberSource } from "./known-sources";
import { judgeNewPassword } from "./password-judge";
import type { PasswordProblem } from "./password-policy";
import { checkSecondFactor, confirmEnrolment, disableTwoFactor } from "./two-factor";
import { loggerFor } from "@/lib/logger";
import {
  createStaffSession,
  deleteOtherStaffSessions,
  deleteExpiredStaffSessions,
  hashToken,
  renewSessionToken,
  MAX_CODE_FAILURES,
  type SessionOrigin,
  type StaffSession,
} from "./staff-sessions";

/**
 * The steps after the password: the second factor's code on a session that waits for it, the
 * enrolment a one-time link opens (staff/links.ts), and turning the second factor off. Each change
 * of level gives the session a new token: a cookie someone saw before the second factor is worth
 * nothing after it.
 */

export type SecondFactorResult =
  /** `token`: the session's new token (the one it had before opens nothing any more). */
  { ok: true; method: "totp" | "recovery"; token: string } | { ok: false; reason: "invalid" | "replayed" | "ended" | "locked" };

/** The rate-limit key of an account's second-factor codes (5, then locks of 1 minute doubling up to 1 hour). */
export function secondFactorKey(userId: string): string {
  return `code:${userId}`;
}

/**
 * The second step of a sign-in: a code on a session that waits for it. A wrong code counts on the
 * session; the 5th ends it, so guessing needs the password again (and its limit). Codes are also
 * limited per account whatever the session: 5, then locks of 1 minute doubling up to 1 hour.
 * A right code gives the session a new token, and makes the address a known one for the account.
 */
export async function completeSecondFactor(
  db: Db,
  found: Pick<StaffSession, "session" | "user" | "partner">,
  code: string,
  ip: string,
  now = new Date(),
): Promise<SecondFactorResult> {
  const who = { partnerId: found.partner?.id ?? null, staff: { id: found.user.id, name: found.user.name }, ip };
  // Per account, across sessions and addresses: without it, someone holding the password could
  // sign in again and again for 5 more guesses each time.
  const codeKey = secondFactorKey(found.user.id);
  const reservation = await reserveAttempt(db, codeKey, LOGIN_LIMITS.perPair, now);
  if (!reservation.allowed) {
    await recordAudit(db, { kind: "second_factor_failed", result: "refused", ...who, details: { reason: "locked" } }, now);
    return { ok: false, reason: "locked" };
  }
  const check = await checkSecondFactor(db, found.user.id, code, now);
  // A replayed code is a valid code used twice (a second tab, a double submit), not a guess: it is
  // refused without counting towards ending the session.
  if (!check.ok && check.reason === "replayed") {
    await releaseAttempt(db, codeKey);
    await recordAudit(db, { kind: "second_factor_failed", result: "refused", ...who, details: { reason: "replayed" } }, now);
    return { ok: false, reason: "replayed" };
  }
  if (!check.ok) {
    const [row] = await db
      .update(staffSessions)
      .set({ codeFailures: found.session.codeFailures + 1 })
      .where(eq(staffSessions.tokenHash, found.session.tokenHash))
      .returning({ failures: staffSessions.codeFailures });
    const ended = !row || row.failures >= MAX_CODE_FAILURES;
    if (ended) await db.delete(staffSessions).where(eq(staffSessions.tokenHash, found.session.tokenHash));
    await recordAudit(db, { kind: "second_factor_failed", result: "failed", ...who, details: { reason: check.reason, ended } }, now);
    return { ok: false, reason: ended ? "ended" : "invalid" };
  }
  await forgetKey(db, codeKey);
  const token = await renewSessionToken(db, found.session.tokenHash, { secondFactorAt: now, codeFailures: 0 });
  if (!token) return { ok: false, reason: "ended" };
  await rememberSource(db, found.user.id, ip, now);
  loggerFor("backoffice").info({ userId: found.user.id }, "backoffice: signed in");
  await recordAudit(db, { kind: check.method === "recovery" ? "recovery_code_used" : "second_factor", result: "ok", ...who }, now);
  return { ...check, token };
}

/**
 * Opens a session for the holder of a one-time enrolment link (already used: staff/links.ts). It
 * leads only to enrolment, where the password is set along with the second factor.
 */
export async function openEnrolmentSession(db: Db, userId: string, origin: SessionOrigin, now = new Date()): Promise<string> {
  await deleteExpiredStaffSessions(db, now);
  return createStaffSession(db, userId, now, { ...origin, enrolment: "link" });
}

export type EnrolmentResult =
  | { ok: true; token: string; recoveryCodes: string[]; endedSessions: number }
  | { ok: false; reason: "not_allowed" | "invalid" | PasswordProblem | "mismatch" };

/**
 * Completes enrolment on a session opened for it: the code from the app confirms this session's
 * own pending secret; a session opened by a link sets its password too (`password`, `confirm`).
 * In one transaction, the second factor is on, every other session of the account ends, and this
 * one gets a new token, signed in with both factors.
 */
export async function completeEnrolment(
  db: Db,
  found: Pick<StaffSession, "session" | "user" | "partner">,
  input: { code: string; password?: string; confirm?: string },
  ip: string,
  now = new Date(),
): Promise<EnrolmentResult> {
  const { session, user } = found;
  if (user.twoFactor || !session.enrolment) return { ok: false, reason: "not_allowed" };
  let passwordHash: string | undefined;
  if (session.enrolment === "link") {
    const problem = await judgeNewPassword(db, user.id, input.password ?? "");
    if (problem) return { ok: false, reason: problem };
    if (input.password !== input.confirm) return { ok: false, reason: "mismatch" };
    passwordHash = await hashPassword(input.password ?? "");
  }
  let token: string | undefined;
  let endedSessions = 0;
  const recoveryCodes = await confirmEnrolment(db, { tokenHash: session.tokenHash, userId: user.id }, input.code, now, async (tx) => {
    if (passwordHash) await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: now }).where(eq(staffUsers.id, user.id));
    const ended = await tx
      .delete(staffSessions)
      .where(and(eq(staffSessions.userId, user.id), ne(staffSessions.tokenHash, session.tokenHash)))
      .returning({ tokenHash: staffSessions.tokenHash });
    endedSessions = ended.length;
    token = await renewSessionToken(tx, session.tokenHash, { secondFactorAt: now, codeFailures: 0, enrolment: null });
    if (!token) throw new Error("the enrolling session ended during its enrolment");
  });
  if (!recoveryCodes || !token) return { ok: false, reason: "invalid" };
  await rememberSource(db, user.id, ip, now);
  loggerFor("backoffice").info({ userId: user.id }, "backoffice: second factor enrolled");
  await recordAudit(
    db,
    {
      kind: "two_factor_enrolled",
      result: "ok",
      partnerId: found.partner?.id ?? null,
      staff: { id: user.id, name: user.name },
      ip,
      details: { endedSessions, via: session.enrolment },
    },
    now,
  );
  return { ok: true, token, recoveryCodes, endedSessions };
}

/**
 * Turns the user's second factor off (the current password was checked: checkCurrentPassword) and
 * ends every other session of theirs: once this session re-enrolled, a session that had passed the
 * old factor (a stolen one, say) would be fully signed in again without any code. This session,
 * which gave both factors, may enrol again; any other needs an enrolment link. Returns how many
 * sessions ended.
 */
export async function turnOffSecondFactor(db: Db, found: { token: string; user: { id: string } }): Promise<number> {
  await disableTwoFactor(db, found.user.id);
  await db
    .update(staffSessions)
    .set({ enrolment: "renew", totpPendingSecret: null })
    .where(eq(staffSessions.tokenHash, hashToken(found.token)));
  return deleteOtherStaffSessions(db, found.user.id, found.token);
}
