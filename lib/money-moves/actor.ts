import "server-only";
import type { Db } from "@/lib/db";
import { apiSecretAuditDetails, recordAudit, type SecretCreator } from "@/lib/audit/audit-log";

/**
 * Who acts on a partner's financing operation (a cancel, a refund): one of its staff members in the
 * back-office, or its backend through the checkout sessions API with one of its secrets. The same
 * domain code serves both (cancel.ts, refund.ts), and the audit log names either: the staff member,
 * or the secret by its name, with who created it.
 */
export interface OperationActor {
  db: Db;
  partnerId: string;
  /** Where the request came from. */
  ip: string;
  who: { kind: "staff"; id: string; name: string } | { kind: "api"; secretId: string; secretName: string; secretCreatedBy: SecretCreator };
}

export interface OperationEvent {
  kind: "operation_cancelled" | "operation_refunded";
  /** Null for a session cancelled before it had an operation. */
  operationId: string | null;
  result: "ok" | "failed";
  /** Amounts in cents, the currency, the API's status on a failure, a booking reference: never text someone typed. */
  details?: Record<string, string | number>;
}

/** Who cancelled or refunded what, from where, with what result. */
export async function auditOperationEvent(actor: OperationActor, event: OperationEvent): Promise<void> {
  const { who } = actor;
  await recordAudit(actor.db, {
    kind: event.kind,
    result: event.result,
    partnerId: actor.partnerId,
    staff: who.kind === "staff" ? { id: who.id, name: who.name } : null,
    apiActor: who.kind === "api" ? who.secretName : null,
    operationId: event.operationId,
    ip: actor.ip,
    details: who.kind === "api" ? { ...event.details, ...apiSecretAuditDetails(who.secretId, who.secretCreatedBy) } : event.details,
  });
}
