import "server-only";
import { notFound, redirect } from "next/navigation";
import type { StaffSessionRow } from "@/lib/identity/staff-sessions";
import { anyStaffSessionForAction, auditPermissionRefused, codePath, ENROL_PATH, loginPath } from "@/lib/identity/staff";
import { OPERATOR_HOME } from "@/lib/identity/scope";
import type { Db } from "@/lib/db";

/**
 * Who is asking in the operator's console (`/operator`): one of the platform's operators, signed
 * in with both factors through the same sign-in as partner staff (the same cookie, the same
 * limits). A partner's staff member gets "not found" here: the console is not theirs, and a
 * partner's pages are not an operator's (lib/identity/staff.ts sends an operator here).
 */

export { OPERATOR_HOME };

export interface OperatorContext {
  db: Db;
  /** The session cookie's token (to end this session, say). */
  token: string;
  session: StaffSessionRow;
  user: { id: string; email: string; name: string };
}

/** The operator signed in with both factors, or undefined: for pages that must not redirect (the console's 404). */
export async function signedInOperator(): Promise<OperatorContext | undefined> {
  return (await currentOperator()).operator;
}

async function currentOperator(): Promise<{ found: Awaited<ReturnType<typeof anyStaffSessionForAction>>; operator?: OperatorContext }> {
  const found = await anyStaffSessionForAction();
  if (!found || found.partner || found.stage !== "full") return { found };
  const { id, email, name } = found.user;
  return { found, operator: { db: found.db, token: found.token, session: found.session, user: { id, email, name } } };
}

/**
 * For the console's pages and route handlers: the operator signed in with both factors. No
 * session: the sign-in (back here after it); half-way: the second factor or enrolment; a
 * partner's staff member: not found.
 */
export async function requireOperator(returnTo: string = OPERATOR_HOME): Promise<OperatorContext> {
  const { found, operator } = await currentOperator();
  if (!found) redirect(loginPath(returnTo));
  if (found.partner) {
    // Not theirs: "not found", as for an address that does not exist, and the attempt audited.
    await auditPermissionRefused(
      found.db,
      { partnerId: found.partner.id, user: found.user },
      { permission: "operator-console", page: returnTo },
      "the operator console, to a partner's staff member,",
    );
    notFound();
  }
  if (found.stage === "code") redirect(codePath(returnTo));
  if (found.stage === "enrol") redirect(ENROL_PATH);
  if (!operator) redirect(loginPath(returnTo));
  return operator;
}
