import "server-only";
import type { z } from "zod";
import type { AuditActor } from "@/lib/audit/audit";
import { requestIp } from "@/lib/identity/staff";
import { guardedAction, type ActionResult } from "@/lib/validated-action";
import { requireOperator, type OperatorContext } from "./session";

/** The operator making the request, as the audit log records them. */
export interface OperatorActionContext extends OperatorContext {
  actor: AuditActor;
}

/**
 * Every operator console action: the platform operator first (none: the request ends as the
 * operator session decides, and nothing runs), then the form and the action through the one guarded
 * shell (lib/validated-action.ts), with the operator as the audit's actor.
 */
export function operatorAction<S extends z.ZodType, T>(
  schema: S,
  run: (operator: OperatorActionContext, input: z.output<S>, formData: FormData) => Promise<T>,
): (previous: unknown, formData: FormData) => Promise<ActionResult<T>> {
  return guardedAction(
    async (): Promise<OperatorActionContext> => {
      const operator = await requireOperator();
      return { ...operator, actor: { kind: "operator", id: operator.user.id, name: operator.user.name, ip: await requestIp() } };
    },
    schema,
    run,
  );
}
