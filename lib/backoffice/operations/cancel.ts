import "server-only";
import { cancelAtPartnerApi, type CancelRefusal } from "@/lib/money-moves/cancel";
import type { FinancingClient } from "@/lib/financing/client";
import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import { staffOperationActor, type StaffActor } from "@/lib/money-moves/staff-actor";
import { ownsOperation, type OwnershipSubject } from "./ownership";

/** The staff member cancelling: who they are, what they own, and the partner API as they reach it. */
export type CancellingStaff = StaffActor & OwnershipSubject & { client: Pick<FinancingClient, "cancelOperation"> };

export type CancelResult = { ok: true } | CancelRefusal;

/**
 * Cancels an operation for a staff member. Someone else's operation (a forged id) is "not found"
 * and nothing is asked of the API; the cancel itself (lib/money-moves/cancel.ts, shared
 * with the checkout sessions API) audits every call it makes, whatever its result.
 */
export async function cancelOperation(
  staff: CancellingStaff,
  input: { operationId: string; reason: string },
  origin: { ip: string },
): Promise<CancelResult> {
  if (input.reason.length > REASON_MAX_LENGTH) return { ok: false, reason: "too_long" };
  if (!(await ownsOperation(staff, input.operationId))) return { ok: false, reason: "not_found" };
  const outcome = await cancelAtPartnerApi(staffOperationActor(staff, origin.ip), staff.client, input);
  return outcome.ok ? { ok: true } : outcome;
}
