import "server-only";
import type { FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import { logError, loggerFor } from "@/lib/logger";
import { auditOperation, type StaffActor } from "../audit/operation-audit";
import { ownsOperation, type OwnershipSubject } from "./ownership";

const log = loggerFor("backoffice");

/** The staff member cancelling: who they are, what they own, and the partner API as they reach it. */
export type CancellingStaff = StaffActor & OwnershipSubject & { client: Pick<FinancingClient, "cancelOperation"> };

export type CancelResult =
  | { ok: true }
  /** The reason is longer than the API takes: said so, nothing sent. */
  | { ok: false; reason: "too_long" }
  /** Someone else's operation, or one the API does not know: its page says "not found". */
  | { ok: false; reason: "not_found" }
  /** The operation is in a status that cannot be cancelled (the API's, when it said which). */
  | { ok: false; reason: "not_cancellable"; status: string | undefined }
  | { ok: false; reason: "unavailable" };

/**
 * Cancels an operation for a staff member. Someone else's operation (a forged id) is "not found"
 * and nothing is asked of the API; every call that is made is audited, whatever its result.
 */
export async function cancelOperation(
  staff: CancellingStaff,
  input: { operationId: string; reason: string },
  origin: { ip: string },
): Promise<CancelResult> {
  if (input.reason.length > REASON_MAX_LENGTH) return { ok: false, reason: "too_long" };
  if (!(await ownsOperation(staff, input.operationId))) return { ok: false, reason: "not_found" };
  const audit = (result: "ok" | "failed", details?: Record<string, string | number>) =>
    auditOperation(staff, { kind: "operation_cancelled", operationId: input.operationId, result, ip: origin.ip, details });
  try {
    await staff.client.cancelOperation(input.operationId, { reason: input.reason.trim() || undefined });
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: cancel failed", error);
    await audit("failed", { status: error.status ?? 0 });
    if (error.is("OPERATION_NOT_CANCELLABLE")) return { ok: false, reason: "not_cancellable", status: error.operationStatus };
    // Another account's, or unknown to the API.
    if (error.status === 403 || error.status === 404) return { ok: false, reason: "not_found" };
    return { ok: false, reason: "unavailable" };
  }
  await audit("ok");
  return { ok: true };
}
