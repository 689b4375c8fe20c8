import "server-only";
import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { AUDIT_KINDS, auditEvents, type AuditKind, type AuditResult } from "@/lib/db/schema";
import { logError, loggerFor } from "@/lib/logger";

/**
 * The audit log: who did what, when, from where, with what result. Append-only (a trigger refuses
 * UPDATE and DELETE). Callers hand in ids, amounts and reason codes only: never a password, a code,
 * a secret or text someone typed.
 */

export interface AuditEventInput {
  kind: AuditKind;
  result: AuditResult;
  partnerId?: string | null;
  staff?: { id: string; name: string } | null;
  operationId?: string | null;
  ip?: string | null;
  details?: Record<string, string | number | boolean | null>;
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/**
 * Who made a change to a partner's settings: one of its staff members, or a platform operator
 * (the operator console). Either is recorded in the staff columns, by id and name at the time, and
 * `details.actor` says which.
 */
export interface AuditActor {
  kind: "staff" | "operator";
  id: string;
  name: string;
  ip?: string | null;
}

/** An event of a change `actor` made to `partnerId`'s settings. */
export async function recordActorAudit(
  db: Db,
  actor: AuditActor,
  event: Omit<AuditEventInput, "staff" | "ip"> & { partnerId: string },
  now = new Date(),
): Promise<void> {
  await recordAudit(
    db,
    { ...event, staff: { id: actor.id, name: actor.name }, ip: actor.ip ?? null, details: { ...event.details, actor: actor.kind } },
    now,
  );
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
      operationId: event.operationId ?? null,
      ip: event.ip ?? null,
      details: event.details ?? null,
    });
  } catch (error) {
    logError(loggerFor("backoffice"), "backoffice: an audit event could not be recorded", error, { kind: event.kind });
  }
}

export interface AuditFilters {
  kind?: AuditKind;
  staffUserId?: string;
  /** Inclusive, UTC. */
  from?: Date;
  /** Exclusive, UTC. */
  to?: Date;
}

export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === "string" && (AUDIT_KINDS as readonly string[]).includes(value);
}

/** The partner's own events, newest first: a partner never sees another's, nor attempts on unknown accounts. */
export async function listAuditEvents(db: Db, partnerId: string, filters: AuditFilters, limit = 200): Promise<AuditEventRow[]> {
  const where: SQL[] = [eq(auditEvents.partnerId, partnerId)];
  if (filters.kind) where.push(eq(auditEvents.kind, filters.kind));
  if (filters.staffUserId) where.push(eq(auditEvents.staffUserId, filters.staffUserId));
  if (filters.from) where.push(gte(auditEvents.at, filters.from));
  if (filters.to) where.push(lt(auditEvents.at, filters.to));
  return db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit);
}
