// Over 400 lines: a partner team's whole member lifecycle (invite, placeholder invitations, roles, grants, disable, remove, second-factor resets), whose rules check each other, kept in one place.
import "server-only";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db";
import type { PartnerStaffRole, StaffRole } from "@/lib/vocabulary/staff";
import { secondFactorResetRequests, staffUsers } from "@/lib/db/schema";
import { loggerFor } from "@/lib/logger";
import type { Locale } from "@/lib/i18n/locales";
import { mailFailure } from "@/lib/mail/failure";
import type { Mailer } from "@/lib/mail/mailer";
import { staffLinkEmail } from "@/lib/mail/staff-link-email";
import { safeText } from "@/lib/validation/text";
import { recordAudit } from "@/lib/audit/audit";
import { hasSecondFactor } from "./accounts";
import { noticeAccountChange, type NoticeOptions } from "./account-notices";
import { deleteAllStaffSessions } from "./staff-sessions";
import { secondFactorKey } from "./second-factor-steps";
import { issueLinkWithExpiry, linkUrl, type IssuedLink } from "./links";
import { can } from "./permissions";
import { forgetKey, LOGIN_LIMITS, normalizeEmail, releaseAttempt, reserveAttempt } from "./rate-limit";
import { checkSecondFactor, disableTwoFactor, isTotpShaped } from "./two-factor";

/**
 * A partner's staff, as its administrators manage them: list, invite (in member-invitations.ts: a
 * one-time link, e-mailed or shown once), change a role or the refund permission, disable (every
 * open session ends at once), enable again, remove, and reset a lost second factor (confirmed with
 * the administrator's own code). Every function here takes the acting administrator and works inside their partner only:
 * another partner's member is "not found", whatever id is sent. Each change is audited with who
 * made it. A partner always keeps one enabled administrator, and no one demotes, disables or
 * removes themselves (another administrator can).
 */

const log = loggerFor("backoffice");

/** Who acts: an administrator of `partner`, as the session gives them. */
export interface StaffAdminActor {
  db: Db;
  partner: { id: string; name: string };
  user: { id: string; name: string; role: StaffRole; canRefund: boolean };
}

export interface Member {
  id: string;
  email: string;
  name: string;
  role: PartnerStaffRole;
  canRefund: boolean;
  /** May answer customers' data requests (an admin only). */
  canDataRequests: boolean;
  /** Enrolled in two-step verification. */
  twoFactor: boolean;
  /** Has chosen a password (an invitee has not until they use their link). */
  passwordSet: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

export const MEMBER_NAME_MAX = 100;

/** The fields of an invitation, from the staff page or the operator's console. */
export const memberEmailField = z
  .string()
  .check(safeText())
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((value) => normalizeEmail(value));
export const memberNameField = z.string().check(safeText()).trim().min(1).max(MEMBER_NAME_MAX);
export const memberRoleField = z.enum(["admin", "agent"]);

export type MemberFailure = "forbidden" | "not_found" | "self" | "last_admin" | "disabled";

/** Everyone of the partner's staff by id and name, by name: whom the audit log can be filtered on. */
export async function memberNames(db: Db, partnerId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: staffUsers.id, name: staffUsers.name })
    .from(staffUsers)
    .where(eq(staffUsers.partnerId, partnerId))
    .orderBy(staffUsers.name);
}

/** The partner's members, administrators first, then by name. */
export async function listMembers(db: Db, partnerId: string): Promise<Member[]> {
  const rows = await db
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.partnerId, partnerId))
    .orderBy(asc(sql`case when ${staffUsers.role} = 'admin' then 0 else 1 end`), asc(staffUsers.name), asc(staffUsers.id));
  return rows.flatMap((row) =>
    row.role === "admin" || row.role === "agent"
      ? [
          {
            id: row.id,
            // An invitation to an address with an account elsewhere shows that address, as any invitee's.
            email: row.invitedElsewhereEmail ?? row.email,
            name: row.name,
            role: row.role,
            canRefund: row.canRefund,
            canDataRequests: row.canDataRequests,
            twoFactor: hasSecondFactor(row),
            passwordSet: row.passwordHash !== null,
            disabledAt: row.disabledAt,
            createdAt: row.createdAt,
          },
        ]
      : [],
  );
}

/** One member of the actor's partner, or undefined (another partner's, an operator, unknown). */
export async function findMember(db: Db, partnerId: string, memberId: string): Promise<Member | undefined> {
  if (typeof memberId !== "string" || memberId.length === 0 || memberId.length > 100) return undefined;
  return (await listMembers(db, partnerId)).find((member) => member.id === memberId);
}

/** Shared with member-invitations.ts; `mailer` for the notices (the configured one when absent). */
export interface ActionOptions extends NoticeOptions {
  ip?: string;
  now?: Date;
}

export function who(actor: StaffAdminActor, ip?: string) {
  return { partnerId: actor.partner.id, staff: { id: actor.user.id, name: actor.user.name }, ip: ip ?? null };
}

export async function refuse(actor: StaffAdminActor, action: string, options: ActionOptions): Promise<{ ok: false; reason: "forbidden" }> {
  log.info({ userId: actor.user.id, action }, "backoffice: a staff change was refused: not an administrator");
  await recordAudit(
    actor.db,
    { kind: "permission_refused", result: "refused", ...who(actor, options.ip), details: { permission: "manage-staff", action } },
    options.now,
  );
  return { ok: false, reason: "forbidden" };
}

/**
 * Runs `change` on the member inside one transaction that holds the partner's enabled
 * administrators locked, so two administrators demoting each other at once cannot leave none.
 */
async function withMember<T>(
  actor: StaffAdminActor,
  memberId: string,
  change: (member: typeof staffUsers.$inferSelect, otherAdmins: number, tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<T>,
): Promise<T | { ok: false; reason: "not_found" }> {
  if (typeof memberId !== "string" || memberId.length === 0 || memberId.length > 100) return { ok: false, reason: "not_found" };
  return actor.db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: staffUsers.id })
      .from(staffUsers)
      .where(and(eq(staffUsers.partnerId, actor.partner.id), eq(staffUsers.role, "admin"), isNull(staffUsers.disabledAt)))
      .for("update");
    const [member] = await tx
      .select()
      .from(staffUsers)
      .where(and(eq(staffUsers.id, memberId), eq(staffUsers.partnerId, actor.partner.id)))
      .limit(1)
      .for("update");
    if (!member) return { ok: false as const, reason: "not_found" as const };
    return change(member, admins.filter((admin) => admin.id !== member.id).length, tx);
  });
}

function isEnabledAdmin(member: { role: StaffRole; disabledAt: Date | null }): boolean {
  return member.role === "admin" && member.disabledAt === null;
}

export type ChangeResult = { ok: true } | { ok: false; reason: MemberFailure };

/**
 * Changes a member's role and the permissions an admin grants (refund; data requests, which only an
 * admin holds: an agent's is always off). No one changes their own role; the last administrator stays one.
 */
export async function changeMember(
  actor: StaffAdminActor,
  memberId: string,
  input: { role: PartnerStaffRole; canRefund: boolean; canDataRequests?: boolean },
  options: ActionOptions = {},
): Promise<ChangeResult> {
  const canDataRequests = input.role === "admin" && input.canDataRequests === true;
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "change", options);
  const result = await withMember(actor, memberId, async (member, otherAdmins, tx) => {
    if (member.id === actor.user.id && member.role !== input.role) return { ok: false as const, reason: "self" as const };
    if (isEnabledAdmin(member) && input.role !== "admin" && otherAdmins === 0) return { ok: false as const, reason: "last_admin" as const };
    await tx.update(staffUsers).set({ role: input.role, canRefund: input.canRefund, canDataRequests }).where(eq(staffUsers.id, member.id));
    const previous = { role: member.role, canRefund: member.canRefund, canDataRequests: member.canDataRequests };
    return { ok: true as const, previous, name: member.name };
  });
  if (!result.ok) return result;
  await recordAudit(
    actor.db,
    {
      kind: "staff_role_changed",
      result: "ok",
      ...who(actor, options.ip),
      details: {
        member: memberId,
        memberName: result.name,
        role: input.role,
        canRefund: input.canRefund,
        previousRole: result.previous.role,
        previousCanRefund: result.previous.canRefund,
        canDataRequests,
        previousCanDataRequests: result.previous.canDataRequests,
      },
    },
    now,
  );
  const access = { role: input.role, canRefund: input.canRefund, canDataRequests };
  if (Object.entries(access).some(([key, value]) => result.previous[key as keyof typeof access] !== value)) {
    await noticeAccountChange(actor.db, memberId, { kind: "access-changed", by: actor.user.name, access }, { ...options, now });
  }
  return { ok: true };
}

export type DisableResult = { ok: true; endedSessions: number } | { ok: false; reason: MemberFailure };

/**
 * Disables a member (their open sessions end at once, and they cannot sign in or use a link), or
 * enables them again. No one disables themselves; the last enabled administrator stays enabled.
 */
export async function setMemberDisabled(
  actor: StaffAdminActor,
  memberId: string,
  disabled: boolean,
  options: ActionOptions = {},
): Promise<DisableResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, disabled ? "disable" : "enable", options);
  const result = await withMember(actor, memberId, async (member, otherAdmins, tx) => {
    if (member.id === actor.user.id) return { ok: false as const, reason: "self" as const };
    if (disabled && isEnabledAdmin(member) && otherAdmins === 0) return { ok: false as const, reason: "last_admin" as const };
    await tx
      .update(staffUsers)
      .set({ disabledAt: disabled ? (member.disabledAt ?? now) : null })
      .where(eq(staffUsers.id, member.id));
    const endedSessions = disabled ? await deleteAllStaffSessions(tx, member.id) : 0;
    return { ok: true as const, endedSessions, name: member.name };
  });
  if (!result.ok) return result;
  await recordAudit(
    actor.db,
    {
      kind: disabled ? "staff_disabled" : "staff_enabled",
      result: "ok",
      ...who(actor, options.ip),
      details: { member: memberId, memberName: result.name, ...(disabled ? { endedSessions: result.endedSessions } : {}) },
    },
    now,
  );
  log.info({ userId: actor.user.id, memberId, disabled }, "backoffice: staff member disabled or enabled");
  return { ok: true, endedSessions: result.endedSessions };
}

/** Removes a member for good (their sessions, links and codes with them); the audit log keeps what they did. */
export async function removeMember(actor: StaffAdminActor, memberId: string, options: ActionOptions = {}): Promise<ChangeResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "remove", options);
  const result = await withMember(actor, memberId, async (member, otherAdmins, tx) => {
    if (member.id === actor.user.id) return { ok: false as const, reason: "self" as const };
    if (isEnabledAdmin(member) && otherAdmins === 0) return { ok: false as const, reason: "last_admin" as const };
    await tx.delete(staffUsers).where(and(eq(staffUsers.id, member.id), eq(staffUsers.partnerId, actor.partner.id)));
    return { ok: true as const, name: member.name, role: member.role };
  });
  if (!result.ok) return result;
  await recordAudit(
    actor.db,
    {
      kind: "staff_removed",
      result: "ok",
      ...who(actor, options.ip),
      details: { member: memberId, memberName: result.name, role: result.role },
    },
    now,
  );
  log.info({ userId: actor.user.id, memberId }, "backoffice: staff member removed");
  return { ok: true };
}

/** How a member's new one-time link is e-mailed to them (with a mail server only). */
export interface LinkMail {
  mailer: Mailer;
  appUrl: string;
  locale: Locale;
  /** The link's expiry as the e-mail says it. */
  formatExpiry: (at: Date, locale: Locale) => string;
}

export type SecondFactorResetResult =
  /** Another administrator's: stored, waiting for a second administrator to confirm it. */
  | { ok: true; delivery: "pending" }
  /** E-mailed to the member: the administrator never holds it. */
  | { ok: true; delivery: "email"; expiresAt: Date; endedSessions: number }
  /** No mail server (`link`), or the e-mail failed: the administrator hands the link over. */
  | { ok: true; delivery: "link" | "email_failed"; link: IssuedLink; endedSessions: number }
  | { ok: false; reason: MemberFailure | "not_enrolled" | "code_invalid" | "code_replayed" | "locked" };

/** How long a request to reset an administrator's second factor waits for its confirmation. */
export const SECOND_FACTOR_RESET_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;

type ResetOptions = ActionOptions & { mail?: LinkMail };
type ResetAudit = (result: "ok" | "refused" | "failed", details: Record<string, string | number | boolean>) => Promise<void>;

/** The member to reset, or why not; and how to audit each step about them. */
async function resetTarget(actor: StaffAdminActor, memberId: string, options: ActionOptions) {
  const member = await findMember(actor.db, actor.partner.id, memberId);
  if (!member) return { ok: false as const, reason: "not_found" as const };
  if (member.id === actor.user.id) return { ok: false as const, reason: "self" as const };
  if (member.disabledAt) return { ok: false as const, reason: "disabled" as const };
  if (!member.twoFactor) return { ok: false as const, reason: "not_enrolled" as const };
  const audit: ResetAudit = async (result, details) => {
    await recordAudit(
      actor.db,
      { kind: "two_factor_reset", result, ...who(actor, options.ip), details: { member: member.id, memberName: member.name, ...details } },
      options.now,
    );
  };
  return { ok: true as const, member, audit };
}

/**
 * The acting administrator's own authenticator code (not a recovery code), limited like a sign-in's:
 * undefined when right, or why not.
 */
async function checkOwnCode(
  actor: StaffAdminActor,
  code: string,
  audit: ResetAudit,
  now: Date,
): Promise<{ ok: false; reason: "code_invalid" | "code_replayed" | "locked" } | undefined> {
  const key = secondFactorKey(actor.user.id);
  const reservation = await reserveAttempt(actor.db, key, LOGIN_LIMITS.perPair, now);
  if (!reservation.allowed) {
    await audit("refused", { reason: "locked" });
    return { ok: false, reason: "locked" };
  }
  const trimmed = code.trim();
  const check = isTotpShaped(trimmed)
    ? await checkSecondFactor(actor.db, actor.user.id, trimmed, now)
    : ({ ok: false, reason: "invalid" } as const);
  if (!check.ok) {
    if (check.reason === "replayed") await releaseAttempt(actor.db, key);
    await audit("failed", { reason: check.reason });
    return { ok: false, reason: check.reason === "replayed" ? "code_replayed" : reservation.last ? "locked" : "code_invalid" };
  }
  await forgetKey(actor.db, key);
  return undefined;
}

/** How many enabled, enrolled administrators of the partner other than these could confirm a request. */
async function otherConfirmers(actor: StaffAdminActor, excluded: string[]): Promise<number> {
  const admins = await listMembers(actor.db, actor.partner.id);
  return admins.filter((m) => m.role === "admin" && !m.disabledAt && m.twoFactor && !excluded.includes(m.id)).length;
}

/**
 * An administrator resets a member's lost second factor, confirming with their own authenticator
 * code (not a recovery code: those are for the administrator's own lost phone). The member's
 * second factor and recovery codes are gone, their sessions end, and a new invitation link (48
 * hours, once) sets a password and a second factor again: e-mailed to the member when `mail` is
 * given, else returned for the administrator to hand over. The administrator's codes count under
 * the same per-account limit as at sign-in. Another administrator's second factor is only
 * requested here when the partner has a third administrator to ask (enabled, enrolled): a second
 * administrator confirms it (confirmSecondFactorReset), so no one administrator can take over
 * another's account alone. Audited, refused attempts too.
 */
export async function resetMemberSecondFactor(
  actor: StaffAdminActor,
  memberId: string,
  code: string,
  options: ResetOptions = {},
): Promise<SecondFactorResetResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "reset_second_factor", options);
  const target = await resetTarget(actor, memberId, { ...options, now });
  if (!target.ok) return target;
  const { member, audit } = target;
  const wrongCode = await checkOwnCode(actor, code, audit, now);
  if (wrongCode) return wrongCode;
  if (member.role === "admin" && (await otherConfirmers(actor, [member.id, actor.user.id])) > 0) {
    const request = {
      partnerId: actor.partner.id,
      requestedBy: actor.user.id,
      requestedAt: now,
      expiresAt: new Date(now.getTime() + SECOND_FACTOR_RESET_REQUEST_TTL_MS),
    };
    await actor.db
      .insert(secondFactorResetRequests)
      .values({ memberId: member.id, ...request })
      .onConflictDoUpdate({ target: secondFactorResetRequests.memberId, set: request });
    await audit("ok", { step: "requested" });
    log.info({ userId: actor.user.id, memberId: member.id }, "backoffice: an administrator's second-factor reset was requested");
    return { ok: true, delivery: "pending" };
  }
  return completeReset(actor, member, audit, options, now, {});
}

/** A pending request to reset the member's second factor, with who asked and until when, or undefined. */
export async function pendingSecondFactorReset(
  db: Db,
  partnerId: string,
  memberId: string,
  now = new Date(),
): Promise<{ requestedBy: { id: string; name: string }; requestedAt: Date; expiresAt: Date } | undefined> {
  const [row] = await db
    .select({
      id: staffUsers.id,
      name: staffUsers.name,
      requestedAt: secondFactorResetRequests.requestedAt,
      expiresAt: secondFactorResetRequests.expiresAt,
    })
    .from(secondFactorResetRequests)
    .innerJoin(staffUsers, eq(staffUsers.id, secondFactorResetRequests.requestedBy))
    .where(
      and(
        eq(secondFactorResetRequests.memberId, memberId),
        eq(secondFactorResetRequests.partnerId, partnerId),
        gt(secondFactorResetRequests.expiresAt, now),
      ),
    )
    .limit(1);
  return row ? { requestedBy: { id: row.id, name: row.name }, requestedAt: row.requestedAt, expiresAt: row.expiresAt } : undefined;
}

export type ConfirmResetResult = SecondFactorResetResult | { ok: false; reason: "no_request" | "own_request" };

/**
 * A second administrator confirms a pending request to reset an administrator's second factor, with
 * their own code; then it is done as resetMemberSecondFactor does it. The one who asked cannot
 * confirm it, nor can the member themselves; an expired request is no request.
 */
export async function confirmSecondFactorReset(
  actor: StaffAdminActor,
  memberId: string,
  code: string,
  options: ResetOptions = {},
): Promise<ConfirmResetResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "confirm_second_factor_reset", options);
  const target = await resetTarget(actor, memberId, { ...options, now });
  if (!target.ok) return target;
  const { member, audit } = target;
  const pending = await pendingSecondFactorReset(actor.db, actor.partner.id, member.id, now);
  if (!pending) return { ok: false, reason: "no_request" };
  if (pending.requestedBy.id === actor.user.id) {
    await audit("refused", { reason: "own_request" });
    return { ok: false, reason: "own_request" };
  }
  const wrongCode = await checkOwnCode(actor, code, audit, now);
  if (wrongCode) return wrongCode;
  // Used once, whoever races: the one whose delete took the row resets.
  const taken = await actor.db
    .delete(secondFactorResetRequests)
    .where(and(eq(secondFactorResetRequests.memberId, member.id), gt(secondFactorResetRequests.expiresAt, now)))
    .returning({ memberId: secondFactorResetRequests.memberId });
  if (taken.length === 0) return { ok: false, reason: "no_request" };
  return completeReset(actor, member, audit, options, now, { step: "confirmed", requestedBy: pending.requestedBy.id });
}

/** The reset itself: the second factor off, every session ended, a new link e-mailed or returned. */
async function completeReset(
  actor: StaffAdminActor,
  member: Member,
  audit: ResetAudit,
  options: ResetOptions,
  now: Date,
  details: Record<string, string>,
): Promise<SecondFactorResetResult> {
  await disableTwoFactor(actor.db, member.id);
  const endedSessions = await deleteAllStaffSessions(actor.db, member.id);
  const link = await issueLinkWithExpiry(actor.db, member.id, "invitation", { now, by: "second_factor_reset" });
  const delivery = options.mail ? await mailLink(options.mail, member, actor.partner.name, link) : "link";
  await audit("ok", { ...details, endedSessions, delivery });
  log.info({ userId: actor.user.id, memberId: member.id, delivery }, "backoffice: a member's second factor was reset");
  return delivery === "email"
    ? { ok: true, delivery, expiresAt: link.expiresAt, endedSessions }
    : { ok: true, delivery, link, endedSessions };
}

/** E-mails the member their new link after a second-factor reset: "email", or "email_failed" (logged with its code). */
async function mailLink(mail: LinkMail, member: Member, organisation: string, link: IssuedLink): Promise<"email" | "email_failed"> {
  try {
    const content = staffLinkEmail({
      kind: "second-factor-reset",
      locale: mail.locale,
      organisation,
      link: linkUrl(mail.appUrl, link.token, "invitation"),
      expiresAt: mail.formatExpiry(link.expiresAt, mail.locale),
    });
    const { messageId } = await mail.mailer.send({ ...content, to: member.email, fromName: organisation });
    log.info({ memberId: member.id, messageId }, "backoffice: second-factor reset link e-mailed");
    return "email";
  } catch (error) {
    log.warn({ memberId: member.id, ...mailFailure(error) }, "backoffice: the second-factor reset link could not be e-mailed");
    return "email_failed";
  }
}
