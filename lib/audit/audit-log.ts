import "server-only";
import type { Db } from "@/lib/db";
import { auditEvents, type AuditKind, type AuditResult } from "@/lib/db/schema";
import { logError, loggerFor } from "@/lib/logger";

/**
 * Writing to a partner's audit log: who did what, when, from where, with what result. Append-only
 * (a trigger refuses UPDATE and DELETE). Here, below the back-office that shows it, because the
 * checkout sessions API writes to it too (a cancel or a refund a partner's backend made). Callers
 * hand in ids, amounts and reason codes only: never a password, a code, a secret or text someone
 * typed.
 */

export interface AuditEventInput {
  kind: AuditKind;
  result: AuditResult;
  partnerId?: string | null;
  staff?: { id: string; name: string } | null;
  /** Done through the checkout sessions API: the name of the partner's API secret used. */
  apiActor?: string | null;
  operationId?: string | null;
  ip?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/**
 * The staff account an event is by or about, with its partner (none for a platform operator); an
 * unknown account (a sign-in or a reset asked for an address no one has) leaves both empty.
 */
export function auditedAccount(
  user: { id: string; name: string; partnerId: string | null } | undefined,
): Pick<AuditEventInput, "partnerId" | "staff"> {
  return { partnerId: user?.partnerId ?? null, staff: user ? { id: user.id, name: user.name } : null };
}

/**
 * Records one event. A failure to record is logged and does not undo what happened (a refund the
 * partner API made stays made); it is an error for operations to look at.
 */
export async function recordAudit(db: Db, event: AuditEventInput, now = new Date()): Promise<void> {
  try {
    await db.insert(auditEvents).values({
      at: now,
      kind: event.kind,
      result: event.result,
      partnerId: event.partnerId ?? null,
      staffUserId: event.staff?.id ?? null,
      staffName: event.staff?.name ?? null,
      apiActor: event.apiActor ?? null,
      operationId: event.operationId ?? null,
      ip: event.ip ?? null,
      details: event.details ?? null,
    });
  } catch (error) {
    logError(loggerFor("audit"), "an audit event could not be recorded", error, { kind: event.kind });
  }
}

/** Who created an API secret: a staff member or an operator by name, or the system (the demo seed, a migration). */
export interface SecretCreator {
  kind: "staff" | "operator" | "system";
  name: string | null;
}

/**
 * What an audit line done with an API secret says of it besides its name: its id and who created
 * it (the one answerable for what it may do).
 */
export function apiSecretAuditDetails(secretId: string, createdBy: SecretCreator | undefined): Record<string, string> {
  if (!createdBy) return { apiSecretId: secretId };
  return {
    apiSecretId: secretId,
    apiSecretCreatedByKind: createdBy.kind,
    ...(createdBy.name ? { apiSecretCreatedBy: createdBy.name } : {}),
  };
}
