import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partnerAgencies } from "@/lib/db/schema";
import { operationOwners } from "@/lib/checkout/session/operation-link";
import { AppError } from "@/lib/app-error";
import { ownsByAgency } from "@/lib/partners/acting-agency";

export { actingAgencyId, ownsByAgency } from "@/lib/partners/acting-agency";

/**
 * Which operations a partner's staff may see and act on, decided here and nowhere else, on the
 * server, before any partner API call about the operation. An operation belongs to a partner when
 * - one of the partner's own checkout sessions opened it, or
 * - the agency the calls act for is assigned to the partner (`partner_agencies`).
 * What the partner API lets the credential reach is not enough: a management group key reaches
 * every agency of its group, and the deployment's key is shared by every partner without one.
 * Someone else's operation answers exactly as an unknown one ("not found"): its existence is not
 * told either.
 */

/** Who is asking, as far as ownership goes (a StaffContext has all of it). */
export interface OwnershipSubject {
  db: Db;
  partner: { id: string };
  /** The agency the partner API calls act for, when known (ownership-rule.ts, actingAgencyId). */
  actingAgencyId: number | undefined;
}

/** The agencies assigned to a partner. */
export async function assignedAgencies(db: Db, partnerId: string): Promise<number[]> {
  const rows = await db
    .select({ agencyId: partnerAgencies.agencyId })
    .from(partnerAgencies)
    .where(eq(partnerAgencies.partnerId, partnerId));
  return rows.map((row) => row.agencyId);
}

/** Whether every operation the calls reach belongs to the partner (its agency is assigned to it). */
export async function ownsActingAgency(subject: OwnershipSubject): Promise<boolean> {
  return ownsByAgency(subject.actingAgencyId, await assignedAgencies(subject.db, subject.partner.id));
}

/**
 * Of these operation ids, the ones another partner's checkout sessions opened (held now or
 * replaced after a correction: operationOwners), unless that partner shares the acting agency
 * (explicitly, a row of its own): theirs, whatever agency the asker owns. Without this, staff acting
 * for an agency of their own could send another partner's operation id to the partner API, which
 * would refuse it only because it is in another agency.
 */
async function openedByOthers(subject: OwnershipSubject, operationIds: readonly string[]): Promise<Set<string>> {
  const others = (await operationOwners(subject.db, operationIds)).filter((row) => row.partnerId !== subject.partner.id);
  if (others.length === 0) return new Set();
  const sharing = await subject.db
    .select({ partnerId: partnerAgencies.partnerId })
    .from(partnerAgencies)
    .where(
      and(
        eq(partnerAgencies.agencyId, subject.actingAgencyId!),
        inArray(partnerAgencies.partnerId, [...new Set(others.map((row) => row.partnerId))]),
      ),
    );
  const shared = new Set(sharing.map((row) => row.partnerId));
  return new Set(others.filter((row) => !shared.has(row.partnerId)).map((row) => row.operationId));
}

/** What an operation id can look like (the partner API's ids): anything else is nobody's, unasked. */
export const OPERATION_ID = /^[\w-]{1,100}$/;

/** Of these operation ids, the ones the partner owns. */
export async function ownedOperationIds(subject: OwnershipSubject, candidates: readonly string[]): Promise<Set<string>> {
  // A URL's id of 3,000 characters or with a path in it is not sent to the partner API (nor logged by it).
  const operationIds = candidates.filter((id) => OPERATION_ID.test(id));
  if (operationIds.length === 0) return new Set();
  if (await ownsActingAgency(subject)) {
    const theirs = await openedByOthers(subject, operationIds);
    return new Set(operationIds.filter((id) => !theirs.has(id)));
  }
  const owners = await operationOwners(subject.db, operationIds);
  return new Set(owners.filter((row) => row.partnerId === subject.partner.id).map((row) => row.operationId));
}

export async function ownsOperation(subject: OwnershipSubject, operationId: string): Promise<boolean> {
  return (await ownedOperationIds(subject, [operationId])).has(operationId);
}

/** The answer for someone else's operation: the same as for one that does not exist. */
export function operationNotFound(): AppError {
  return new AppError("not_found", "No such operation.");
}

/** Throws `not_found` (AppError) unless the partner owns the operation. */
export async function requireOwnedOperation(subject: OwnershipSubject, operationId: string): Promise<void> {
  if (!(await ownsOperation(subject, operationId))) throw operationNotFound();
}

/** Assigns agencies to a partner (the seed, tests, an operator's script); already assigned: kept. */
export async function assignAgencies(db: Db, partnerId: string, agencyIds: readonly number[]): Promise<void> {
  if (agencyIds.length === 0) return;
  await db
    .insert(partnerAgencies)
    .values(agencyIds.map((agencyId) => ({ partnerId, agencyId })))
    .onConflictDoNothing();
}
