import "server-only";
import { notFound, redirect } from "next/navigation";
import type { z } from "zod";
import type { StaffSessionRow } from "@/lib/backoffice/staff/auth";
import { anyStaffSessionForAction, codePath, ENROL_PATH, loginPath, requestIp } from "@/lib/backoffice/staff/staff";
import { OPERATOR_HOME } from "@/lib/backoffice/staff/scope";
import type { Db } from "@/lib/db";
import { validatedAction, type ActionResult } from "@/lib/validated-action";

/**
 * Who is asking in the operator's console (`/operator`): one of the platform's operators, signed
 * in with both factors through the same sign-in as partner staff (the same cookie, the same
 * limits). A partner's staff member gets "not found" here: the console is not theirs, and a
 * partner's pages are not an operator's (lib/backoffice/staff/staff.ts sends an operator here).
 */

export { OPERATOR_HOME };

export interface OperatorContext {
  db: Db;
  /** The session cookie's token (to end this session, say). */
  token: string;
  session: StaffSessionRow;
  user: { id: string; email: string; name: string };
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
  if (found.partner) notFound();
  if (found.stage === "code") redirect(codePath(returnTo));
  if (found.stage === "enrol") redirect(ENROL_PATH);
  if (!operator) redirect(loginPath(returnTo));
  return operator;
}

/** For server actions: the operator signed in with both factors, or undefined (refuse, do nothing). */
export async function operatorForAction(): Promise<OperatorContext | undefined> {
  return (await currentOperator()).operator;
}

/** For route handlers, which answer rather than redirect. */
export const operatorForRequest = operatorForAction;

/**
 * Every console server action: the operator first (anyone else: refused, nothing runs, and the
 * browser goes to the sign-in), then the form through validatedAction, then the action.
 */
export function operatorAction<S extends z.ZodType, T>(
  schema: S,
  run: (operator: OperatorContext, input: z.output<S>, formData: FormData) => Promise<T>,
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return async (previous, formData) => {
    const operator = await operatorForAction();
    if (!operator) redirect(loginPath(OPERATOR_HOME));
    return validatedAction(schema, (input: z.output<S>, data: FormData) => run(operator, input, data))(previous, formData);
  };
}

/** The operator as the audit log records who did something. */
export function operatorActor(operator: OperatorContext): { id: string; name: string } {
  return { id: operator.user.id, name: operator.user.name };
}

export { requestIp };
