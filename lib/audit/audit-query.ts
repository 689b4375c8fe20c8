/**
 * The audit page's filters as its GET form sends them (shareable URLs): a kind, a member of the
 * partner's staff, and a range of whole days in UTC. Pure: anything that is not one of these is
 * ignored, and a date that is set but not a real day is said so (the page then shows every date).
 */
import { AUDIT_KINDS, type AuditKind } from "@/lib/db/schema";

export interface AuditFilters {
  kind?: AuditKind;
  staffUserId?: string;
  /** Inclusive, UTC. */
  from?: Date;
  /** Exclusive, UTC. */
  to?: Date;
}

export { AUDIT_KINDS, type AuditKind };

export function isAuditKind(value: unknown): value is AuditKind {
  return typeof value === "string" && (AUDIT_KINDS as readonly string[]).includes(value);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** yyyy-mm-dd as a UTC midnight, or undefined; `invalid` when it is set but not a real date. */
function dayOf(value: unknown): { date?: Date; invalid?: boolean } {
  if (typeof value !== "string" || value === "") return {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return { invalid: true };
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? { invalid: true } : { date };
}

/** The filters a query asks for; a member is taken only when `memberIds` (the partner's staff) holds them. */
export function auditFiltersOf(
  query: Record<string, string | string[] | undefined>,
  memberIds: readonly string[],
): { filters: AuditFilters; invalidDate: boolean } {
  const from = dayOf(query.from);
  const to = dayOf(query.to);
  const staff = query.staff;
  return {
    filters: {
      kind: isAuditKind(query.kind) ? query.kind : undefined,
      staffUserId: typeof staff === "string" && memberIds.includes(staff) ? staff : undefined,
      from: from.date,
      // "To" is the whole day.
      to: to.date ? new Date(to.date.getTime() + DAY_MS) : undefined,
    },
    invalidDate: Boolean(from.invalid || to.invalid),
  };
}
