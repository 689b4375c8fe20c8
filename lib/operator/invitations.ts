import "server-only";
import { randomBytes } from "node:crypto";
import { issueLink, linkUrl } from "@/lib/backoffice/staff/links";
import { hashPassword } from "@/lib/backoffice/staff/passwords";
import { normalizeEmail } from "@/lib/backoffice/staff/rate-limit";
import type { Db } from "@/lib/db";
import { staffUsers } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";

/*
 * PLACEHOLDER, replaced at merge by the identity work's invitation (roles, the admin role given,
 * its own link purpose and audit). Here: a staff account with an unusable password, and the
 * existing one-time enrolment link, with which the invitee sets a password and a second factor.
 */

/** Creates the partner's first administrator and returns the one-time link to hand them (shown once). */
export async function createPartnerAdminInvitation(db: Db, partnerId: string, email: string, name: string): Promise<string> {
  const id = `staff_${randomBytes(12).toString("base64url")}`;
  await db.insert(staffUsers).values({
    id,
    partnerId,
    email: normalizeEmail(email),
    name,
    // Nobody knows it: the link sets the real one.
    passwordHash: await hashPassword(randomBytes(32).toString("base64url")),
  });
  const token = await issueLink(db, id, "enrolment", { by: "operator" });
  return linkUrl(getEnv().APP_URL, token);
}
