import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { auditedAccount, recordAudit } from "@/lib/audit/audit";
import { hasSecondFactor } from "./accounts";
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./passwords";
import {
  accountKey,
  forgetKey,
  ipKey,
  LOGIN_LIMITS,
  normalizeEmail,
  pairKey,
  releaseAttempt,
  reserveAttempt,
  type Reservation,
} from "./rate-limit";
import { isKnownSource } from "./known-sources";
import { PASSWORD_MIN_LENGTH, type PasswordProblem } from "./password-policy";
import { judgeNewPassword } from "./password-judge";
import { noticeAccountChange, type NoticeOptions } from "./account-notices";
import { loggerFor } from "@/lib/logger";
import { createStaffSession, deleteOtherStaffSessions, deleteStaffSession, deleteExpiredStaffSessions } from "./staff-sessions";

/**
 * Staff sign-in by password, and the current password asked again behind a session (to change it,
 * to turn the second factor off). The sessions are in staff-sessions.ts, the steps after the
 * password (second factor, enrolment) in second-factor-steps.ts. Someone not enrolled yet gets no
 * session from a password: only a one-time enrolment link (staff/links.ts) opens one, and that one
 * leads only to enrolment.
 *
 * The same machinery signs in a partner's staff and the platform's operators (no partner); a
 * disabled account, or the staff of a disabled partner, gets no sign-in and no session.
 */

export type SignInResult =
  | { ok: true; token: string; userId: string; stage: "code" }
  | { ok: false; reason: "invalid" | "locked" }
  /** The right password, for a disabled account or the staff of a disabled partner. */
  | { ok: false; reason: "disabled" }
  /** The right password, for an account with no second factor: only an enrolment link goes on. */
  | { ok: false; reason: "enrolment_link_needed" };

/**
 * Checks the e-mail and password, under the rate limit (lib/identity/rate-limit.ts): the attempt
 * is reserved first, so parallel guesses cannot get more checks than the limit. The answer never
 * says whether the e-mail exists: an unknown e-mail is checked against a dummy hash (same time)
 * and counted like any other. A success opens a session that still needs the second factor (and
 * ends `previousToken`'s, the browser's session before it); for an account not enrolled yet, it
 * opens nothing.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string; ip: string; userAgent?: string | null; previousToken?: string },
  now = new Date(),
  hooks: { verify?: typeof verifyPassword } = {},
): Promise<SignInResult> {
  const verify = hooks.verify ?? verifyPassword;
  const email = normalizeEmail(input.email);
  const keys = { pair: pairKey(email, input.ip), ip: ipKey(input.ip), account: accountKey(email) };
  const log = loggerFor("backoffice");
  const [found] = await db
    .select({ user: staffUsers, partnerDisabledAt: partners.disabledAt })
    .from(staffUsers)
    .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(eq(staffUsers.email, email))
    .limit(1);
  const user = found?.user;
  const who = auditedAccount(user);

  // The per-account ceiling spares the places the account is known at (known-sources.ts).
  const known = user ? await isKnownSource(db, user.id, input.ip, now) : false;
  const pair = await reserveAttempt(db, keys.pair, LOGIN_LIMITS.perPair, now);
  const ip = pair.allowed ? await reserveAttempt(db, keys.ip, LOGIN_LIMITS.perIp, now) : undefined;
  const account: Reservation | undefined =
    ip?.allowed && !known ? await reserveAttempt(db, keys.account, LOGIN_LIMITS.perAccount, now) : undefined;
  if (!pair.allowed || !ip?.allowed || (!known && !account?.allowed)) {
    if (pair.allowed) await releaseAttempt(db, keys.pair);
    if (ip?.allowed) await releaseAttempt(db, keys.ip);
    const by = !pair.allowed ? "account_and_ip" : !ip?.allowed ? "ip" : "account";
    log.info({ reason: "locked" }, "backoffice: a sign-in was refused by its limit");
    await recordAudit(db, { kind: "sign_in_locked", result: "refused", ...who, ip: input.ip, details: { by } }, now);
    return { ok: false, reason: "locked" };
  }

  // Someone invited who has not chosen a password yet: checked against the dummy, like an unknown e-mail.
  const matches = (await verify(input.password, user?.passwordHash ?? (await dummyPasswordHash()))) && Boolean(user?.passwordHash);
  if (!user || !matches) {
    const reason = pair.last || ip.last || account?.last ? "locked" : "invalid";
    // Neither the e-mail nor the password: whether the account exists is no log reader's business either.
    log.info({ reason }, "backoffice: a sign-in failed");
    await recordAudit(db, { kind: reason === "locked" ? "sign_in_locked" : "sign_in_failed", result: "failed", ...who, ip: input.ip }, now);
    return { ok: false, reason };
  }

  await forgetKey(db, keys.pair);
  await releaseAttempt(db, keys.ip);
  if (account) await releaseAttempt(db, keys.account);
  if (user.disabledAt || found?.partnerDisabledAt) {
    // Only someone who knows the password learns the account is disabled (and whom to ask).
    log.info({ userId: user.id }, "backoffice: password accepted for a disabled account: refused");
    await recordAudit(db, { kind: "sign_in", result: "refused", ...who, ip: input.ip, details: { reason: "disabled" } }, now);
    return { ok: false, reason: "disabled" };
  }
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    // The password is known right now, and only now: the moment to move an old hash to today's cost.
    await db
      .update(staffUsers)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(staffUsers.id, user.id));
  }
  await deleteExpiredStaffSessions(db, now);
  // A new session, a new token: whatever this browser held before is over.
  if (input.previousToken) await deleteStaffSession(db, input.previousToken);
  const enrolled = hasSecondFactor(user);
  if (!enrolled) {
    // Whoever knows the password must not be the one who sets the second factor up: that takes a
    // one-time link from an administrator, sent to the owner.
    log.info({ userId: user.id }, "backoffice: password accepted, no second factor: an enrolment link is needed");
    await recordAudit(db, { kind: "sign_in", result: "refused", ...who, ip: input.ip, details: { next: "enrolment_link" } }, now);
    return { ok: false, reason: "enrolment_link_needed" };
  }
  log.info({ userId: user.id }, "backoffice: password accepted");
  await recordAudit(db, { kind: "sign_in", result: "ok", ...who, ip: input.ip, details: { next: "second_factor" } }, now);
  const token = await createStaffSession(db, user.id, now, { ip: input.ip, userAgent: input.userAgent });
  return { ok: true, token, userId: user.id, stage: "code" };
}

/** The rate-limit key of an account's current password asked again behind a session. */
export function currentPasswordKey(userId: string): string {
  return `current-password:${userId}`;
}

/**
 * The current password, asked again behind a signed-in session (to change it, to turn two-step
 * verification off), limited per account as the second factor's codes are: without a limit, a
 * stolen session cookie would be a password oracle with no end, and the password it found would
 * turn the second factor off. The 5th wrong one in a row (whatever the session or address) ends
 * the session that sent it, as does any attempt while the account's checks are locked (1 minute,
 * doubling up to 1 hour): guessing on needs a sign-in, with its own limits and the second factor.
 */
export async function checkCurrentPassword(
  db: Db,
  found: { token: string; user: { id: string } },
  password: string,
  now = new Date(),
): Promise<"ok" | "wrong" | "ended"> {
  const key = currentPasswordKey(found.user.id);
  const reservation = await reserveAttempt(db, key, LOGIN_LIMITS.perPair, now);
  if (reservation.allowed) {
    const [user] = await db
      .select({ passwordHash: staffUsers.passwordHash })
      .from(staffUsers)
      .where(eq(staffUsers.id, found.user.id))
      .limit(1);
    if (user?.passwordHash && (await verifyPassword(password, user.passwordHash))) {
      await forgetKey(db, key);
      return "ok";
    }
    if (!reservation.last) return "wrong";
  }
  await deleteStaffSession(db, found.token);
  return "ended";
}

export type PasswordChangeResult =
  { ok: true; endedSessions: number } | { ok: false; reason: "wrong_current" | "ended" | PasswordProblem | "mismatch" | "same" };

export { PASSWORD_MIN_LENGTH };

/** Changes the password (the current one first) and ends every other session of the user. */
export async function changePassword(
  db: Db,
  found: { token: string; user: { id: string; name: string; partnerId: string | null } },
  input: { current: string; next: string; confirm: string },
  ip: string,
  now = new Date(),
  notices: NoticeOptions = {},
): Promise<PasswordChangeResult> {
  const who = { ...auditedAccount(found.user), ip };
  const current = await checkCurrentPassword(db, found, input.current, now);
  if (current !== "ok") {
    const reason = current === "ended" ? "ended" : "wrong_current";
    await recordAudit(db, { kind: "password_changed", result: "refused", ...who, details: { reason } }, now);
    return { ok: false, reason };
  }
  const problem = await judgeNewPassword(db, found.user.id, input.next, { previous: input.current });
  if (problem) return { ok: false, reason: problem };
  if (input.next !== input.confirm) return { ok: false, reason: "mismatch" };
  if (input.next === input.current) return { ok: false, reason: "same" };
  await db
    .update(staffUsers)
    .set({ passwordHash: await hashPassword(input.next), passwordChangedAt: now })
    .where(eq(staffUsers.id, found.user.id));
  const endedSessions = await deleteOtherStaffSessions(db, found.user.id, found.token);
  await recordAudit(db, { kind: "password_changed", result: "ok", ...who, details: { endedSessions } }, now);
  await noticeAccountChange(db, found.user.id, { kind: "password-changed" }, { ...notices, now });
  return { ok: true, endedSessions };
}
