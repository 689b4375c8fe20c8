import "server-only";
import type { FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import type { OperationChange } from "@/lib/financing/types";
import { logError, loggerFor } from "@/lib/logger";
import { auditOperationEvent, type OperationActor } from "./actor";

const log = loggerFor("checkout");

export type CancelOutcome =
  | { ok: true; change: OperationChange }
  /** The reason is longer than the API takes: said so, nothing sent. */
  | { ok: false; reason: "too_long" }
  /** The API does not let this credential see the operation (another account's, or unknown). */
  | { ok: false; reason: "not_found" }
  /** The operation is in a status that cannot be cancelled (the API's, when it said which). */
  | { ok: false; reason: "not_cancellable"; status: string | undefined }
  | { ok: false; reason: "unavailable" };

/** Why a cancel was not made: the same for every caller of it. */
export type CancelRefusal = Extract<CancelOutcome, { ok: false }>;

/**
 * Cancels an operation at the partner API for a staff member or a partner's backend, whose
 * ownership of it the caller has checked (the back-office's ownership rule; the API's session of
 * that partner). The API decides whether it still can be (GENERATED, PENDING or ERROR only). Every
 * call that is made is audited, whatever its result; what was typed as the reason is sent, never
 * audited.
 */
export async function cancelAtPartnerApi(
  actor: OperationActor,
  client: Pick<FinancingClient, "cancelOperation">,
  input: { operationId: string; reason: string; details?: Record<string, string | number> },
): Promise<CancelOutcome> {
  if (input.reason.length > REASON_MAX_LENGTH) return { ok: false, reason: "too_long" };
  const audit = (result: "ok" | "failed", details?: Record<string, string | number>) =>
    auditOperationEvent(actor, {
      kind: "operation_cancelled",
      operationId: input.operationId,
      result,
      details: input.details || details ? { ...input.details, ...details } : undefined,
    });
  let change: OperationChange;
  try {
    change = await client.cancelOperation(input.operationId, { reason: input.reason.trim() || undefined });
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "cancel failed", error, { by: actor.who.kind });
    await audit("failed", { status: error.status ?? 0 });
    if (error.is("OPERATION_NOT_CANCELLABLE")) return { ok: false, reason: "not_cancellable", status: error.operationStatus };
    // Another account's, or unknown to the API.
    if (error.status === 403 || error.status === 404) return { ok: false, reason: "not_found" };
    return { ok: false, reason: "unavailable" };
  }
  await audit("ok");
  return { ok: true, change };
}
