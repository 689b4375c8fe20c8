import "server-only";
import type { z } from "zod";
import type { AuditActor } from "@/lib/audit/audit";
import { requestIp } from "@/lib/identity/staff";
import { validatedAction, type ActionResult } from "@/lib/validated-action";
import { requireOperator, type OperatorContext } from "./session";

/** The operator making the request, as the audit log records them. */
export interface OperatorActionContext extends OperatorContext {
  actor: AuditActor;
}

/**
 * Every operator console action: the platform operator first (none: the request ends as the
 * operator session decides, and nothing runs), then the form through validatedAction, then the
 * action, with the operator as the audit's actor.
 */
export function operatorAction<S extends z.ZodType, T>(
  schema: S,
  run: (operator: OperatorActionContext, input: z.output<S>, formData: FormData) => Promise<T>,
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return async (previous, formData) => {
    const operator = await requireOperator();
    const actor: AuditActor = { kind: "operator", id: operator.user.id, name: operator.user.name, ip: await requestIp() };
    return validatedAction(schema, (input: z.output<S>, data: FormData) => run({ ...operator, actor }, input, data))(previous, formData);
  };
}
