import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, or } from "drizzle-orm";
import type { IndexColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db";
import type { PartnerStaffRole } from "@/lib/vocabulary/staff";
import { partners, staffUsers } from "@/lib/db/schema";
import type { Locale } from "@/lib/i18n/locales";
import type { Mailer } from "@/lib/mail/mailer";
import { staffLinkEmail, type StaffLinkEmailKind } from "@/lib/mail/staff-link-email";
import { loggerFor } from "@/lib/logger";
import { recordAudit } from "@/lib/audit/audit";
import { takeTokens, type BucketRule } from "@/lib/security/limits/shared-token-bucket";
import { noticeAccountChange } from "./account-notices";
import { issueLinkWithExpiry, type IssuedLink } from "./links";
import { can } from "./permissions";
import {
  findMember,
  memberEmailField,
  memberNameField,
  refuse,
  who,
  type ActionOptions,
  type MemberFailure,
  type StaffAdminActor,
} from "./members";

/**
 * Inviting someone to a partner's staff (by its administrator, or the partner's first
 * administrator by an operator), a new invitation link, and e-mailing a one-time link. The
 * invitation link (48 hours, once) is the only way into a new account.
 */

const log = loggerFor("backoffice");

/**
 * How many invitations a partner's administrators may have e-mailed: 20 at once, 20 more an hour
 * (one budget per partner, shared by every instance). Enough for a team's onboarding; not a way to
 * use the platform's mail server for bulk mail. A link to hand over costs nothing from it.
 */
export const INVITATION_EMAIL_BUDGET = { capacity: 20, perHour: 20 } as const satisfies BucketRule;

type InviteFailure = { ok: false; reason: "forbidden" | "email_taken" | "no_partner" | "invalid_email" | "invalid_name" | "limited" };

export type InviteResult =
  /**
   * `accountElsewhere`: the address has an account at another partner or on the platform. The
   * invitation is recorded like any other (a member of the staff list waiting to set up their
   * access, a link of the same form), so an administrator learns nothing of other partners'
   * accounts; but the row is a placeholder that opens nothing, its link is refused, and the e-mail
   * (sent here, with `delivery: "email"`) tells the address it already has an account elsewhere.
   * The caller sends the invitation e-mail only when it is false. Never shown to the administrator.
   */
  { ok: true; memberId: string; link: IssuedLink; accountElsewhere: boolean } | InviteFailure;

/**
 * A new member of the partner, with no password and no second factor: an invitation link (48 hours,
 * once) is how they set both. Nothing else opens the account. The e-mail is unique over everyone
 * who signs in (partners' staff and operators alike).
 */
async function createInvitedMember(
  db: Db,
  partnerId: string,
  input: { email: string; name: string; role: PartnerStaffRole; canRefund: boolean },
  now: Date,
): Promise<{ ok: true; memberId: string; link: IssuedLink } | { ok: false; reason: "email_taken" | "no_partner" }> {
  const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).limit(1);
  if (!partner) return { ok: false, reason: "no_partner" };
  const invited = await insertInvitedRow(db, { partnerId, ...input }, staffUsers.email, now);
  return invited ? { ok: true, ...invited } : { ok: false, reason: "email_taken" };
}

/**
 * The invited member's row (no password, no second factor) and its invitation link, unless a row
 * already holds `unique` (then undefined: the address is taken).
 */
async function insertInvitedRow(
  db: Db,
  row: { partnerId: string; email: string; invitedElsewhereEmail?: string; name: string; role: PartnerStaffRole; canRefund: boolean },
  unique: IndexColumn | IndexColumn[],
  now: Date,
): Promise<{ memberId: string; link: IssuedLink } | undefined> {
  const memberId = `staff_${randomUUID()}`;
  const inserted = await db
    .insert(staffUsers)
    .values({ id: memberId, ...row, passwordHash: null, createdAt: now })
    .onConflictDoNothing({ target: unique })
    .returning({ id: staffUsers.id });
  if (inserted.length === 0) return undefined;
  return { memberId, link: await issueLinkWithExpiry(db, memberId, "invitation", { now, by: "invitation" }) };
}

/** An administrator invites someone to their partner's staff (the e-mail and name are checked here too). */
export async function inviteMember(
  actor: StaffAdminActor,
  input: { email: string; name: string; role: PartnerStaffRole; canRefund: boolean; delivery: "email" | "link" },
  options: ActionOptions = {},
): Promise<InviteResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "invite", options);
  const email = memberEmailField.safeParse(input.email);
  if (!email.success) return { ok: false, reason: "invalid_email" };
  const name = memberNameField.safeParse(input.name);
  if (!name.success) return { ok: false, reason: "invalid_name" };
  // Spent before anything is written: beyond the budget no member exists, and no link.
  if (
    input.delivery === "email" &&
    !(await takeTokens(actor.db, [{ key: `invitation-email:partner:${actor.partner.id}`, rule: INVITATION_EMAIL_BUDGET }], now))
  ) {
    await recordAudit(
      actor.db,
      { kind: "staff_invited", result: "refused", ...who(actor, options.ip), details: { reason: "limited" } },
      now,
    );
    log.info({ userId: actor.user.id }, "backoffice: an invitation e-mail was refused: the partner's budget is spent");
    return { ok: false, reason: "limited" };
  }
  const fields = { ...input, email: email.data, name: name.data };
  const invited = await createInvitedMember(actor.db, actor.partner.id, fields, now);
  if (!invited.ok && invited.reason !== "email_taken") return invited;
  if (!invited.ok && (await isPartnerMember(actor.db, actor.partner.id, email.data))) return invited;
  // Taken at another partner or on the platform: recorded like an invitation, as a placeholder that opens nothing.
  const created = invited.ok
    ? { ...invited, accountElsewhere: false }
    : await createElsewhereInvitation(actor.db, actor.partner.id, fields, now);
  if (!created.ok) return created;
  await recordAudit(
    actor.db,
    {
      kind: "staff_invited",
      result: "ok",
      ...who(actor, options.ip),
      details: {
        member: created.memberId,
        memberName: name.data,
        role: input.role,
        canRefund: input.canRefund,
        delivery: input.delivery,
      },
    },
    now,
  );
  if (!created.accountElsewhere)
    log.info({ userId: actor.user.id, memberId: created.memberId, role: input.role }, "backoffice: staff member invited");
  else {
    log.info(
      { userId: actor.user.id, memberId: created.memberId },
      "backoffice: an address with an account elsewhere was invited: recorded as a placeholder that opens nothing",
    );
    if (input.delivery === "email")
      await noticeAccountChange(actor.db, created.memberId, { kind: "invited-elsewhere", by: actor.user.name }, { ...options, now });
  }
  return created;
}

/** Whether the address is a member (or an invitee) of this very partner, which its administrators may be told. */
async function isPartnerMember(db: Db, partnerId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(or(eq(staffUsers.email, email), eq(staffUsers.invitedElsewhereEmail, email)), eq(staffUsers.partnerId, partnerId)))
    .limit(1);
  return Boolean(row);
}

/**
 * The invitation of an address that has an account elsewhere, recorded as any invitation is (a
 * member row of the partner, no password, an invitation link), so that the staff list, the
 * member's page and every action on it behave alike. The row holds the address invited in
 * `invitedElsewhereEmail` and, as its sign-in address, a unique one of the reserved `.invalid`
 * domain: nobody signs in with it, no mail reaches it, and its links are refused
 * (lib/identity/links.ts), so accepting attaches nothing to the account elsewhere. A second
 * invitation of the address at the same partner is `email_taken`, as for any member.
 */
async function createElsewhereInvitation(
  db: Db,
  partnerId: string,
  input: { email: string; name: string; role: PartnerStaffRole; canRefund: boolean },
  now: Date,
): Promise<{ ok: true; memberId: string; link: IssuedLink; accountElsewhere: true } | { ok: false; reason: "email_taken" }> {
  const invited = await insertInvitedRow(
    db,
    { partnerId, ...input, email: `invited-elsewhere.${randomUUID()}@staff.invalid`, invitedElsewhereEmail: input.email },
    [staffUsers.partnerId, staffUsers.invitedElsewhereEmail],
    now,
  );
  return invited ? { ok: true, ...invited, accountElsewhere: true } : { ok: false, reason: "email_taken" };
}

/**
 * The first administrator of a partner, as the platform's operator creates it from the console: an
 * admin who may refund, invited with a one-time link (48 hours) for the operator to send or hand
 * over. `by` is the operator, recorded in the partner's audit log as who invited them. The e-mail
 * and name are checked here (they come from a form).
 */
export async function createPartnerAdminInvitation(
  db: Db,
  partnerId: string,
  email: string,
  name: string,
  options: { by?: { id: string; name: string }; ip?: string; now?: Date } = {},
): Promise<{ ok: true; memberId: string; link: IssuedLink } | InviteFailure> {
  const now = options.now ?? new Date();
  const parsedEmail = memberEmailField.safeParse(email);
  if (!parsedEmail.success) return { ok: false, reason: "invalid_email" };
  const parsedName = memberNameField.safeParse(name);
  if (!parsedName.success) return { ok: false, reason: "invalid_name" };
  const created = await createInvitedMember(
    db,
    partnerId,
    { email: parsedEmail.data, name: parsedName.data, role: "admin", canRefund: true },
    now,
  );
  if (!created.ok) return created;
  await recordAudit(
    db,
    {
      kind: "staff_invited",
      result: "ok",
      partnerId,
      staff: options.by ?? null,
      ip: options.ip ?? null,
      details: { member: created.memberId, memberName: parsedName.data, role: "admin", canRefund: true, by: "operator" },
    },
    now,
  );
  log.info({ partnerId, memberId: created.memberId }, "backoffice: a partner's first administrator was invited");
  return created;
}

export type LinkResult = { ok: true; link: IssuedLink } | { ok: false; reason: MemberFailure | "enrolled" };

/**
 * A new invitation link for a member who has not set up their access yet (the first one was lost,
 * or expired); it voids the one before.
 */
export async function reissueInvitation(actor: StaffAdminActor, memberId: string, options: ActionOptions = {}): Promise<LinkResult> {
  const now = options.now ?? new Date();
  if (!can(actor.user, "manage-staff")) return refuse(actor, "reissue", options);
  const member = await findMember(actor.db, actor.partner.id, memberId);
  if (!member) return { ok: false, reason: "not_found" };
  if (member.disabledAt) return { ok: false, reason: "disabled" };
  if (member.twoFactor) return { ok: false, reason: "enrolled" };
  const link = await issueLinkWithExpiry(actor.db, member.id, "invitation", { now, by: "invitation" });
  await recordAudit(
    actor.db,
    {
      kind: "staff_invited",
      result: "ok",
      ...who(actor, options.ip),
      details: { member: member.id, memberName: member.name, again: true },
    },
    now,
  );
  return { ok: true, link };
}

/** Sends a staff member their one-time link; the logs carry ids, never the address. */
export async function sendStaffLink(
  mailer: Mailer,
  input: { to: string; kind: StaffLinkEmailKind; locale: Locale; organisation: string; link: string; expiresAt: string; fromName: string },
): Promise<{ messageId: string }> {
  const content = staffLinkEmail({
    kind: input.kind,
    locale: input.locale,
    organisation: input.organisation,
    link: input.link,
    expiresAt: input.expiresAt,
  });
  return mailer.send({ ...content, to: input.to, fromName: input.fromName });
}
