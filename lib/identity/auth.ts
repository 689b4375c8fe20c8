import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, lte, ne, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import type { PartnerStaffRole } from "@/lib/vocabulary/staff";
import { partners, staffSessions, staffUsers, type PartnerRow } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit/audit";
import { asAccount, hasSecondFactor, type OperatorAccount, type PartnerStaffAccount } from "./accounts";
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
import { isKnownSource, rememberSource } from "./known-sources";
import { PASSWORD_MIN_LENGTH, passwordProblem } from "./password-policy";
import { checkSecondFactor, confirmEnrolment, disableTwoFactor, type Tx } from "./two-factor";
import { loggerFor } from "@/lib/logger";

/**
 * Staff sign-in and sessions, on the database alone (the cookie is the app layer's business, in
 * `staff.ts`). The cookie carries a random 32-byte token; the table keeps only its SHA-256, so a
 * leaked table opens no session. A session lasts 8 hours at most and ends after 30 minutes without
 * a request; signing out deletes the row. A password opens a session that waits for the second
 * factor: see {@link sessionStage}. Someone not enrolled yet gets no session from a password: only
 * a one-time enrolment link (staff/links.ts) opens one, and that one leads only to enrolment. Every
 * change of level (password, second factor, enrolment) gives the session a new token, the old one
 * dead: a cookie someone saw before the second factor is worth nothing after it.
 *
 * The same machinery signs in a partner's staff and the platform's operators (no partner); a
 * disabled account, or the staff of a disabled partner, gets no sign-in and no session.
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
  "id" | "email" | "name" | "partnerId" | "role" | "canRefund"
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
      user: { id, email, name, partnerId: null, role: "operator", canRefund: false, twoFactor },
      partner: null,
    };
  }
  if (!row.partner) return undefined;
  return {
    session: row.session,
    user: { id, email, name, partnerId: account.partnerId, role: account.role, canRefund: account.canRefund, twoFactor },
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
  const who = user ? { partnerId: user.partnerId, staff: { id: user.id, name: user.name } } : {};

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
  | { ok: false; reason: "not_allowed" | "invalid" | "too_short" | "common" | "mismatch" };

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
    const problem = await passwordProblem(input.password ?? "");
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

export type PasswordChangeResult =
  { ok: true; endedSessions: number } | { ok: false; reason: "wrong_current" | "ended" | "too_short" | "common" | "mismatch" | "same" };

export { PASSWORD_MIN_LENGTH };

/** Changes the password (the current one first) and ends every other session of the user. */
export async function changePassword(
  db: Db,
  found: { token: string; user: { id: string; name: string; partnerId: string | null } },
  input: { current: string; next: string; confirm: string },
  ip: string,
  now = new Date(),
): Promise<PasswordChangeResult> {
  const who = { partnerId: found.user.partnerId, staff: { id: found.user.id, name: found.user.name }, ip };
  const current = await checkCurrentPassword(db, found, input.current, now);
  if (current !== "ok") {
    const reason = current === "ended" ? "ended" : "wrong_current";
    await recordAudit(db, { kind: "password_changed", result: "refused", ...who, details: { reason } }, now);
    return { ok: false, reason };
  }
  const problem = await passwordProblem(input.next);
  if (problem) return { ok: false, reason: problem };
  if (input.next !== input.confirm) return { ok: false, reason: "mismatch" };
  if (input.next === input.current) return { ok: false, reason: "same" };
  await db
    .update(staffUsers)
    .set({ passwordHash: await hashPassword(input.next), passwordChangedAt: now })
    .where(eq(staffUsers.id, found.user.id));
  const endedSessions = await deleteOtherStaffSessions(db, found.user.id, found.token);
  await recordAudit(db, { kind: "password_changed", result: "ok", ...who, details: { endedSessions } }, now);
  return { ok: true, endedSessions };
}
