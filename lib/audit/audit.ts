import "server-only";
import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { auditEvents } from "@/lib/db/schema";
import type { AuditFilters } from "./audit-query";
import { recordAudit, type AuditEventInput, type AuditEventRow } from "@/lib/audit/audit-log";

/**
 * The audit log as the back-office keeps and reads it. Written through lib/audit/audit-log.ts
 * (the checkout sessions API writes to it too); re-exported here for the back-office's callers.
 */
export { auditedAccount, recordAudit, type AuditEventInput, type AuditEventRow } from "@/lib/audit/audit-log";
export { AUDIT_KINDS, auditFiltersOf, type AuditFilters } from "./audit-query";

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
