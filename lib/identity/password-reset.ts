import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import type { Locale } from "@/lib/i18n/locales";
import { logError, loggerFor } from "@/lib/logger";
import type { Mailer } from "@/lib/mail/mailer";
import { addressBucket } from "@/lib/security/limits/address-bucket";
import { takeTokens, type BucketRule } from "@/lib/security/limits/shared-token-bucket";
import { auditedAccount, recordAudit } from "@/lib/audit/audit";
import { deleteAllStaffSessions } from "./staff-sessions";
import { consumeLink, issueLinkWithExpiry, linkUrl, peekLink } from "./links";
import { sendStaffLink } from "./member-invitations";
import { hashPassword } from "./passwords";
import { judgeNewPassword } from "./password-judge";
import { noticeAccountChange, type NoticeOptions } from "./account-notices";
import type { PasswordProblem } from "./password-policy";
import { normalizeEmail } from "./rate-limit";

/**
 * "Forgot your password?": an e-mailed one-time link (30 minutes) to choose a new one. The answer
 * is the same whether or not the address has an account (nor whether it is disabled), and the
 * e-mail goes out after the answer, so its time tells nothing either. Requests are limited per
 * address and per e-mail (shared token buckets, every instance spending the same budget), so no
 * one floods a mailbox or the mail server. Before the answer only those limits are spent, the same
 * work for every address; looking the account up, its link and its audit come after the answer. A
 * new password ends every session of the account; the second factor is still asked at the next
 * sign-in, so a mailbox alone opens nothing.
 */

export const PASSWORD_RESET_LIMITS = {
  /** Per client address (an IPv6 /64 as one): a few people behind one office's address. */
  perIp: { capacity: 10, perHour: 10 },
  /** Per e-mail, known or not: enough for a lost message or two. */
  perEmail: { capacity: 3, perHour: 3 },
} as const satisfies Record<string, BucketRule>;

export type ResetRequestOutcome =
  /** Said to everyone: "if an account has that address, a link is on its way". */
  | "accepted"
  /** Too many requests from this address or for this e-mail: try later. */
  | "limited"
  /** No mail server configured: reset by e-mail is not offered (the same for every address). */
  | "unavailable";

export interface ResetRequestDeps {
  mailer: Mailer | undefined;
  appUrl: string;
  /** The sender's display name and what a platform operator's e-mail calls the organisation. */
  platformName: string;
  /** The link's expiry as the e-mail says it, in its language. */
  formatExpiry: (at: Date, locale: Locale) => string;
}

/**
 * Takes a reset request. `delivery` settles when the follow-up (the lookup, the audit, the link and
 * its e-mail, if any) is done or failed, never rejecting: the caller answers without waiting for
 * it; tests wait.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; ip: string; locale: Locale },
  deps: ResetRequestDeps,
  now = new Date(),
): Promise<{ outcome: ResetRequestOutcome; delivery: Promise<void> }> {
  if (!deps.mailer) return { outcome: "unavailable", delivery: Promise.resolve() };
  const mailer = deps.mailer;
  const email = normalizeEmail(input.email);
  const allowed = await takeTokens(
    db,
    [
      { key: `password-reset:email:${email}`, rule: PASSWORD_RESET_LIMITS.perEmail },
      { key: `password-reset:ip:${addressBucket(input.ip)}`, rule: PASSWORD_RESET_LIMITS.perIp },
    ],
    now,
  );
  // Everything that depends on whether the address has an account happens after the answer: before
  // it, every address costs the same work (the limits above), so the answer's time tells nothing.
  const delivery = nextTurn()
    .then(() => followUpResetRequest(db, { email, ip: input.ip, locale: input.locale, allowed }, { ...deps, mailer }, now))
    .catch((error: unknown) => logError(loggerFor("backoffice"), "backoffice: a password reset request could not be followed up", error));
  return { outcome: allowed ? "accepted" : "limited", delivery };
}

/** Resolves on a later turn of the event loop, after the caller has answered. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The work behind an answered request: the account looked up, the request audited, and for a usable account its link issued and e-mailed. */
async function followUpResetRequest(
  db: Db,
  input: { email: string; ip: string; locale: Locale; allowed: boolean },
  deps: ResetRequestDeps & { mailer: Mailer },
  now: Date,
): Promise<void> {
  const [found] = await db
    .select({ user: staffUsers, partnerName: partners.name, partnerDisabledAt: partners.disabledAt })
    .from(staffUsers)
    .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(eq(staffUsers.email, input.email))
    .limit(1);
  const user = found?.user;
  const who = { ...auditedAccount(user), ip: input.ip };
  if (!input.allowed) {
    await recordAudit(db, { kind: "password_reset_requested", result: "refused", ...who, details: { reason: "limited" } }, now);
    return;
  }
  // Unknown, disabled, of a disabled partner, or invited and never set up (their invitation is the way in): nothing is sent.
  const usable = user && !user.disabledAt && !found.partnerDisabledAt && user.passwordHash !== null;
  if (!usable) {
    await recordAudit(
      db,
      { kind: "password_reset_requested", result: "refused", ...who, details: { reason: user ? "not_usable" : "unknown" } },
      now,
    );
    return;
  }
  const link = await issueLinkWithExpiry(db, user.id, "password-reset", { now, by: "password_reset" });
  await recordAudit(db, { kind: "password_reset_requested", result: "ok", ...who }, now);
  await sendStaffLink(deps.mailer, {
    to: user.email,
    kind: "password-reset",
    locale: input.locale,
    organisation: found.partnerName ?? deps.platformName,
    link: linkUrl(deps.appUrl, link.token, "password-reset"),
    expiresAt: deps.formatExpiry(link.expiresAt, input.locale),
    fromName: found.partnerName ?? deps.platformName,
  }).then(
    ({ messageId }) => loggerFor("backoffice").info({ userId: user.id, messageId }, "backoffice: password reset link e-mailed"),
    (error: unknown) =>
      logError(loggerFor("backoffice"), "backoffice: the password reset e-mail could not be sent", error, { userId: user.id }),
  );
}

/** Whether a reset link is live (for its page: opening it uses nothing). */
export async function isResetLinkLive(db: Db, token: string, now = new Date()): Promise<boolean> {
  return Boolean(await peekLink(db, token, "password-reset", now));
}

export type ResetResult = { ok: true; endedSessions: number } | { ok: false; reason: "invalid_link" | PasswordProblem | "mismatch" };

/**
 * Sets the new password with a live reset link. The password is judged before the link is used, so
 * a refused one does not cost the link; then the link is used (once, whoever races), the password
 * set, and every session of the account ends.
 */
export async function resetPassword(
  db: Db,
  token: string,
  input: { password: string; confirm: string },
  options: { ip?: string; now?: Date } & NoticeOptions = {},
): Promise<ResetResult> {
  const now = options.now ?? new Date();
  const linkUser = await peekLink(db, token, "password-reset", now);
  if (!linkUser) return { ok: false, reason: "invalid_link" };
  const problem = await judgeNewPassword(db, linkUser, input.password);
  if (problem) return { ok: false, reason: problem };
  if (input.password !== input.confirm) return { ok: false, reason: "mismatch" };
  const passwordHash = await hashPassword(input.password);
  const userId = await consumeLink(db, token, "password-reset", { now, ip: options.ip });
  if (!userId) return { ok: false, reason: "invalid_link" };
  const [user] = await db
    .update(staffUsers)
    .set({ passwordHash, passwordChangedAt: now })
    .where(eq(staffUsers.id, userId))
    .returning({ id: staffUsers.id, name: staffUsers.name, partnerId: staffUsers.partnerId });
  if (!user) return { ok: false, reason: "invalid_link" };
  const endedSessions = await deleteAllStaffSessions(db, userId);
  await recordAudit(
    db,
    {
      kind: "password_reset",
      result: "ok",
      ...auditedAccount(user),
      ip: options.ip ?? null,
      details: { endedSessions },
    },
    now,
  );
  loggerFor("backoffice").info({ userId }, "backoffice: password reset with a link");
  await noticeAccountChange(db, userId, { kind: "password-reset" }, { ...options, now });
  return { ok: true, endedSessions };
}
