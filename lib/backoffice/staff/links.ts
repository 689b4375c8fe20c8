import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { staffLinks, staffUsers } from "@/lib/db/schema";
import { recordAudit } from "../audit/audit";

/**
 * One-time links for staff: an operator (or, later, an administrator's invitation or a password
 * reset) issues one for an account; its holder uses it once, within minutes. The URL carries 32
 * random bytes; the table keeps only their SHA-256, so a leaked table opens nothing. Issuing a new
 * link for the same account and purpose voids the ones before it. Both ends are audited.
 */

export type LinkPurpose = (typeof staffLinks.$inferSelect)["purpose"];

export const LINK_TTL_MS = 30 * 60_000;

/** Where a link's page lives: a path under the sign-in, never a redirect target (scope.ts). */
export const LINK_PATH = "/admin/login/link";

function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A token's plausible shape (base64url of 32 bytes): anything else is not looked up. */
export function isLinkTokenShaped(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);
}

export function linkUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}${LINK_PATH}/${token}`;
}

/** Issues a link for the account; returns the token for its URL (never stored as such). */
export async function issueLink(
  db: Db,
  userId: string,
  purpose: LinkPurpose,
  options: { now?: Date; ttlMs?: number; by?: string } = {},
): Promise<string> {
  const now = options.now ?? new Date();
  const [user] = await db
    .select({ id: staffUsers.id, name: staffUsers.name, partnerId: staffUsers.partnerId })
    .from(staffUsers)
    .where(eq(staffUsers.id, userId))
    .limit(1);
  if (!user) throw new Error("no such staff member");
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.delete(staffLinks).where(and(eq(staffLinks.userId, userId), eq(staffLinks.purpose, purpose), isNull(staffLinks.usedAt)));
    await tx.insert(staffLinks).values({
      tokenHash: hashLinkToken(token),
      userId,
      purpose,
      createdAt: now,
      expiresAt: new Date(now.getTime() + (options.ttlMs ?? LINK_TTL_MS)),
    });
  });
  await recordAudit(
    db,
    {
      kind: "staff_link_issued",
      result: "ok",
      partnerId: user.partnerId,
      staff: { id: user.id, name: user.name },
      details: { purpose, by: options.by ?? "app" },
    },
    now,
  );
  return token;
}

/** The account a live link (unused, unexpired) is for, without using it: for its page. */
export async function peekLink(db: Db, token: string, purpose: LinkPurpose, now = new Date()): Promise<string | undefined> {
  if (!isLinkTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ userId: staffLinks.userId })
    .from(staffLinks)
    .where(live(token, purpose, now))
    .limit(1);
  return row?.userId;
}

/**
 * Uses the link: one conditional UPDATE, so two requests with the same token cannot both succeed.
 * Returns the account it was for; undefined for an unknown, used or expired one.
 */
export async function consumeLink(
  db: Db,
  token: string,
  purpose: LinkPurpose,
  options: { now?: Date; ip?: string } = {},
): Promise<string | undefined> {
  const now = options.now ?? new Date();
  if (!isLinkTokenShaped(token)) return undefined;
  const [used] = await db
    .update(staffLinks)
    .set({ usedAt: now })
    .where(live(token, purpose, now))
    .returning({ userId: staffLinks.userId });
  const [user] = used
    ? await db
        .select({ id: staffUsers.id, name: staffUsers.name, partnerId: staffUsers.partnerId })
        .from(staffUsers)
        .where(eq(staffUsers.id, used.userId))
        .limit(1)
    : [];
  await recordAudit(
    db,
    {
      kind: "staff_link_used",
      result: used ? "ok" : "refused",
      partnerId: user?.partnerId ?? null,
      staff: user ? { id: user.id, name: user.name } : null,
      ip: options.ip ?? null,
      details: { purpose },
    },
    now,
  );
  return used?.userId;
}

function live(token: string, purpose: LinkPurpose, now: Date) {
  return and(
    eq(staffLinks.tokenHash, hashLinkToken(token)),
    eq(staffLinks.purpose, purpose),
    isNull(staffLinks.usedAt),
    gt(staffLinks.expiresAt, now),
  );
}
