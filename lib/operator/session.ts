import "server-only";
import { notFound } from "next/navigation";
import { requireStaff } from "@/lib/backoffice/staff/staff";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { getEnv } from "@/lib/env";

/*
 * PLACEHOLDER, replaced at merge by the operator session of the identity work (platform operators
 * with their own accounts, sign-in and second factor). It only lets this branch's console compile
 * and be tested: an "operator" here is a staff member of the demo partner signed in with both
 * factors, on the sandbox only (never with the production partner API); anyone else gets a 404.
 */

export interface OperatorContext {
  user: { id: string; email: string; name: string };
}

/** The platform operator making this request; otherwise a redirect to sign in, or a 404. */
export async function requireOperator(): Promise<OperatorContext> {
  const staff = await requireStaff();
  if (getEnv().financing.environment !== "sandbox" || staff.partner.id !== DEMO_PARTNER_ID) notFound();
  return { user: { id: staff.user.id, email: staff.user.email, name: staff.user.name } };
}
