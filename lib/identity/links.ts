import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import type { StaffLinkPurpose } from "@/lib/vocabulary/staff";
import { partners, staffLinks, staffUsers } from "@/lib/db/schema";
import { auditedAccount, recordAudit } from "@/lib/audit/audit";

/**
 * One-time links for staff: the command line's enrolment link (an operator's first, or anyone's
 * when asked), an administrator's invitation (or a new one after a second factor was reset), and
 * a password reset asked for by e-mail. Its holder uses it once, before it expires. The URL carries
 * 32 random bytes; the table keeps only their SHA-256, so a leaked table opens nothing. Issuing a
 * new link for the same account and kind voids the ones before it. Both ends are audited. A
 * disabled account (or the staff of a disabled partner) uses none, and an account that has set up
 * its second factor gets and uses no enrolment link (its session would sign in with a code alone).
 */

export type LinkPurpose = StaffLinkPurpose;

/** The command line's enrolment link, and a password reset: minutes, not days. */
export const LINK_TTL_MS = 30 * 60_000;
/** An invitation waits for its reader longer: an e-mail is not always read within the hour. */
export const INVITATION_TTL_MS = 48 * 60 * 60_000;

export function linkTtlMs(purpose: LinkPurpose): number {
  return purpose === "invitation" ? INVITATION_TTL_MS : LINK_TTL_MS;
}

/** The links that lead to enrolment (the password and the second factor set up): the same page, the same session. */
export const ENROLMENT_PURPOSES = ["enrolment", "invitation"] as const satisfies readonly LinkPurpose[];

function isEnrolmentPurpose(purpose: LinkPurpose): boolean {
  return (ENROLMENT_PURPOSES as readonly LinkPurpose[]).includes(purpose);
}

/** Where a link's page lives: a path under the sign-in, never a redirect target (scope.ts). */
export const LINK_PATH = "/admin/login/link";
export const RESET_PATH = "/admin/login/reset";

function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A token's plausible shape (base64url of 32 bytes): anything else is not looked up. */
export function isLinkTokenShaped(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The link's URL: enrolment and invitations share one page, a password reset has its own. */
export function linkUrl(appUrl: string, token: string, purpose: LinkPurpose = "enrolment"): string {
  return `${appUrl.replace(/\/+$/, "")}${purpose === "password-reset" ? RESET_PATH : LINK_PATH}/${token}`;
}

/** The kinds a new link voids: a new enrolment or invitation voids both (either would set up the account). */
function family(purpose: LinkPurpose): LinkPurpose[] {
  return purpose === "password-reset" ? ["password-reset"] : [...ENROLMENT_PURPOSES];
}

export interface IssuedLink {
  token: string;
  expiresAt: Date;
}

/** Issues a link for the account; returns the token for its URL (never stored as such) and when it expires. */
export async function issueLinkWithExpiry(
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  options: { now?: Date; ttlMs?: number; by?: string } = {},
): Promise<IssuedLink> {
  const now = options.now ?? new Date();
  const [user] = await db
    .select({ id: staffUsers.id, name: staffUsers.name, partnerId: staffUsers.partnerId, enrolledAt: staffUsers.totpEnabledAt })
    .from(staffUsers)
    .where(eq(staffUsers.id, userId))
    .limit(1);
  if (!user) throw new Error("no such staff member");
  // Callers check first (the command line says so, an invitation is not reissued): reaching here is a bug.
  if (user.enrolledAt && isEnrolmentPurpose(purpose)) throw new Error("the account has enrolled already: no enrolment link");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + (options.ttlMs ?? linkTtlMs(purpose)));
  await db.transaction(async (tx) => {
    await tx
      .delete(staffLinks)
      .where(and(eq(staffLinks.userId, userId), inArray(staffLinks.purpose, family(purpose)), isNull(staffLinks.usedAt)));
    await tx.insert(staffLinks).values({ tokenHash: hashLinkToken(token), userId, purpose, createdAt: now, expiresAt });
  });
  await recordAudit(
    db,
    {
      kind: "staff_link_issued",
      result: "ok",
      ...auditedAccount(user),
      details: { purpose, by: options.by ?? "app" },
    },
    now,
  );
  return { token, expiresAt };
}

/** Issues a link for the account; returns the token for its URL (never stored as such). */
export async function issueLink(
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  options: { now?: Date; ttlMs?: number; by?: string } = {},
): Promise<string> {
  return (await issueLinkWithExpiry(db, userId, purpose, options)).token;
}

type Purposes = LinkPurpose | readonly LinkPurpose[];

/** The account a live link (unused, unexpired, of a usable account) is for, without using it: for its page. */
export async function peekLink(db: Db, token: string, purpose: Purposes, now = new Date()): Promise<string | undefined> {
  if (!isLinkTokenShaped(token)) return undefined;
  const [row] = await db
    .select({
      userId: staffLinks.userId,
      purpose: staffLinks.purpose,
      disabledAt: staffUsers.disabledAt,
      enrolledAt: staffUsers.totpEnabledAt,
      partnerDisabledAt: partners.disabledAt,
      invitedElsewhere: staffUsers.invitedElsewhereEmail,
    })
    .from(staffLinks)
    .innerJoin(staffUsers, eq(staffUsers.id, staffLinks.userId))
    .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(live(token, purpose, now))
    .limit(1);
  return row && !refusal(row) ? row.userId : undefined;
}

/**
 * Why a link's account cannot use it: disabled (or its partner), an enrolment link of an account
 * that has enrolled, or the placeholder of an invitation to an address with an account elsewhere
 * (lib/identity/member-invitations.ts), which nothing opens.
 */
function refusal(account: {
  purpose: LinkPurpose;
  disabledAt: Date | null;
  partnerDisabledAt: Date | null;
  enrolledAt: Date | null;
  invitedElsewhere: string | null;
}): "disabled" | "enrolled" | "unusable" | undefined {
  if (account.invitedElsewhere !== null) return "unusable";
  if (account.disabledAt || account.partnerDisabledAt) return "disabled";
  if (account.enrolledAt && isEnrolmentPurpose(account.purpose)) return "enrolled";
  return undefined;
}

/**
 * Uses the link: one conditional UPDATE, so two requests with the same token cannot both succeed.
 * Returns the account it was for; undefined for an unknown, used or expired one, one whose
 * account was disabled since, or an enrolment link of an account that has enrolled since.
 */
export async function consumeLink(
  db: Db,
  token: string,
  purpose: Purposes,
  options: { now?: Date; ip?: string } = {},
): Promise<string | undefined> {
  const now = options.now ?? new Date();
  if (!isLinkTokenShaped(token)) return undefined;
  const [used] = await db
    .update(staffLinks)
    .set({ usedAt: now })
    .where(live(token, purpose, now))
    .returning({ userId: staffLinks.userId, purpose: staffLinks.purpose });
  const [user] = used
    ? await db
        .select({
          id: staffUsers.id,
          name: staffUsers.name,
          partnerId: staffUsers.partnerId,
          disabledAt: staffUsers.disabledAt,
          enrolledAt: staffUsers.totpEnabledAt,
          partnerDisabledAt: partners.disabledAt,
          invitedElsewhere: staffUsers.invitedElsewhereEmail,
        })
        .from(staffUsers)
        .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
        .where(eq(staffUsers.id, used.userId))
        .limit(1)
    : [];
  const refused = used && user ? refusal({ ...user, purpose: used.purpose }) : undefined;
  const usable = Boolean(user && !refused);
  await recordAudit(
    db,
    {
      kind: "staff_link_used",
      result: usable ? "ok" : "refused",
      ...auditedAccount(user),
      ip: options.ip ?? null,
      details: {
        purpose: used?.purpose ?? (typeof purpose === "string" ? purpose : purpose.join(",")),
        ...(refused ? { reason: refused } : {}),
      },
    },
    now,
  );
  return usable ? used?.userId : undefined;
}

function live(token: string, purpose: Purposes, now: Date) {
  return and(
    eq(staffLinks.tokenHash, hashLinkToken(token)),
    typeof purpose === "string" ? eq(staffLinks.purpose, purpose) : inArray(staffLinks.purpose, [...purpose]),
    isNull(staffLinks.usedAt),
    gt(staffLinks.expiresAt, now),
  );
}
