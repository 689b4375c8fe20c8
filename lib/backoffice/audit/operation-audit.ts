import "server-only";
import type { Db } from "@/lib/db";
import { recordAudit } from "./audit";

/** A staff member as the audit log records them: their partner, their id and their name. */
export interface StaffActor {
  db: Db;
  partner: { id: string };
  user: { id: string; name: string };
}

export interface OperationEvent {
  kind: "operation_cancelled" | "operation_refunded";
  operationId: string;
  result: "ok" | "failed";
  /** Where the request came from. */
  ip: string;
  /** Amounts in cents, the currency, the API's status on a failure: never text someone typed. */
  details?: Record<string, string | number>;
}

/** Who cancelled or refunded what, from where, with what result. */
export async function auditOperation(actor: StaffActor, event: OperationEvent): Promise<void> {
  await recordAudit(actor.db, {
    kind: event.kind,
    result: event.result,
    partnerId: actor.partner.id,
    staff: { id: actor.user.id, name: actor.user.name },
    operationId: event.operationId,
    ip: event.ip,
    details: event.details,
  });
}
