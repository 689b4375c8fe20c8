import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { passwordProblem, reusesPrevious, type PasswordProblem } from "./password-policy";

/**
 * A new password judged at every place one is set (enrolment, reset, change) with what is known of
 * its owner: their name, e-mail and agency from the account, and the previous password, typed (a
 * change) or, when it was not, compared with its hash (its variants with a character or two more).
 */
export async function judgeNewPassword(
  db: Db,
  userId: string,
  password: string,
  options: { previous?: string } = {},
): Promise<PasswordProblem | undefined> {
  const [owner] = await db
    .select({ name: staffUsers.name, email: staffUsers.email, passwordHash: staffUsers.passwordHash, organisation: partners.name })
    .from(staffUsers)
    .leftJoin(partners, eq(partners.id, staffUsers.partnerId))
    .where(eq(staffUsers.id, userId))
    .limit(1);
  const problem = await passwordProblem(password, {
    name: owner?.name,
    email: owner?.email,
    organisation: owner?.organisation ?? undefined,
    previous: options.previous,
  });
  if (problem) return problem;
  if (options.previous === undefined && (await reusesPrevious(password, owner?.passwordHash ?? null))) return "weak";
  return undefined;
}
