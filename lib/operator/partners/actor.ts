import "server-only";
import type { AuditActor } from "@/lib/backoffice/audit/audit";
import { operatorActor, requestIp, type OperatorContext } from "../session";

/** The operator making this request, as the partner's audit log records who changed it, and from where. */
export async function operatorAuditActor(operator: OperatorContext): Promise<AuditActor> {
  return { kind: "operator", ...operatorActor(operator), ip: await requestIp() };
}
