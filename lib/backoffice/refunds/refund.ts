import "server-only";
import type { FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import { money } from "@/lib/financing/money";
import { logError, loggerFor } from "@/lib/logger";
import { recordAudit } from "../audit/audit";
import { auditOperation, type StaffActor } from "../audit/operation-audit";
import { can, type PermissionHolder } from "../staff/permissions";
import { ownsOperation, type OwnershipSubject } from "../operations/ownership";
import { refundBaseOf, reviewRefund, type RefundBase, type RefundFieldError, type RefundValues } from "./review";

const log = loggerFor("backoffice");

/** What the server computed for the charges entered: the API's breakdown minus both charges, in cents. */
export interface RefundComputation {
  agencyFeeCents: number;
  providerFeeCents: number;
  chargesCents: number;
  totalToRefundCents: number;
}

export type RefundErrors = Partial<Record<keyof RefundValues, RefundFieldError>>;

/** Where a refund stands after a step: the form again, the review to confirm, or how it ended. */
export type RefundStep =
  | { step: "edit"; values?: RefundValues; errors?: RefundErrors; base?: RefundBase }
  | { step: "confirm"; values: RefundValues; base: RefundBase; computed: RefundComputation; changed?: boolean }
  | { step: "done"; values: RefundValues; base: RefundBase; computed: RefundComputation; status: string | null }
  | { step: "rejected"; status: string | null }
  | { step: "failed"; reason: "not_refundable" | "validation" | "unavailable" | "not_found"; status: string | null };

export interface RefundRequest {
  operationId: string;
  /** edit: back to the form; review: compute and show; confirm: refund, if the total still holds. */
  intent: "edit" | "review" | "confirm";
  values: RefundValues;
  /** The total the staff member confirmed, in cents: the refund goes ahead only if it still holds. */
  expectedTotal?: string;
}

/** The staff member refunding: who they are, what they own, and the partner API as they reach it. */
export type RefundingStaff = StaffActor &
  OwnershipSubject & { user: PermissionHolder } & { client: Pick<FinancingClient, "getRefundDetails" | "refund" | "getStatus"> };

/**
 * One step of a refund: edit the charges, review the server's computation, confirm. Amounts are
 * recomputed from a fresh breakdown at each step, never taken from the form. Someone else's
 * operation (a forged id) is "not found" and nothing is asked of the API, as it is for a member
 * without the refund permission (that refusal audited); the refund call itself is audited with the
 * amounts asked for, whatever its result.
 */
export async function refundStep(staff: RefundingStaff, request: RefundRequest, origin: { ip: string }): Promise<RefundStep> {
  const { operationId, values } = request;
  if (!can(staff.user, "refund")) {
    log.info({ userId: staff.user.id }, "backoffice: a refund was refused: no refund permission");
    await recordAudit(staff.db, {
      kind: "permission_refused",
      result: "refused",
      partnerId: staff.partner.id,
      staff: { id: staff.user.id, name: staff.user.name },
      operationId,
      ip: origin.ip,
      details: { permission: "refund" },
    });
    return { step: "failed", reason: "not_found", status: null };
  }
  if (request.intent === "edit") return { step: "edit", values };
  if (!(await ownsOperation(staff, operationId))) return { step: "failed", reason: "not_found", status: null };

  let base: RefundBase;
  try {
    base = refundBaseOf(await staff.client.getRefundDetails(operationId));
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: reading the refund breakdown failed", error);
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { step: "failed", reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(staff, operationId)) };
    }
    return { step: "failed", reason: "unavailable", status: null };
  }

  const review = reviewRefund(base, values);
  if (!review.ok) return { step: "edit", values, errors: review.errors, base };
  const computed: RefundComputation = {
    agencyFeeCents: review.agencyFeeCents,
    providerFeeCents: review.providerFeeCents,
    chargesCents: review.chargesCents,
    totalToRefundCents: review.totalToRefundCents,
  };
  if (request.intent === "review") return { step: "confirm", values, base, computed };
  // The breakdown moved since the staff member looked (it is read again now): show the new one.
  if (request.expectedTotal !== String(computed.totalToRefundCents)) return { step: "confirm", values, base, computed, changed: true };

  const amounts = {
    currency: base.currency,
    agencyFeeCents: computed.agencyFeeCents,
    providerFeeCents: computed.providerFeeCents,
    chargesCents: computed.chargesCents,
    totalToRefundCents: computed.totalToRefundCents,
  };
  const audit = (result: "ok" | "failed", details: Record<string, string | number>) =>
    auditOperation(staff, { kind: "operation_refunded", operationId, result, ip: origin.ip, details });
  try {
    await staff.client.refund(operationId, {
      agencyCancellationFee: money(computed.agencyFeeCents, base.currency),
      providerCancellationFee: money(computed.providerFeeCents, base.currency),
      reason: review.reason || undefined,
    });
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: refund failed", error);
    await audit("failed", { ...amounts, status: error.status ?? 0 });
    if (error.is("OPERATION_NOT_REFUNDABLE") && error.status === 422) {
      return { step: "rejected", status: await currentStatus(staff, operationId) };
    }
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { step: "failed", reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(staff, operationId)) };
    }
    if (error.status === 400) return { step: "failed", reason: "validation", status: null };
    // Not retried (money moves): whether it happened is for the status to tell.
    return { step: "failed", reason: "unavailable", status: null };
  }
  await audit("ok", amounts);
  return { step: "done", values, base, computed, status: await currentStatus(staff, operationId) };
}

async function currentStatus(staff: Pick<RefundingStaff, "client">, operationId: string): Promise<string | null> {
  try {
    return (await staff.client.getStatus(operationId)).status.status;
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "backoffice: reading the status after a refund failed", error);
    return null;
  }
}
