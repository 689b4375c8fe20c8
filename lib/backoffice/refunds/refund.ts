import "server-only";
import { readRefundBreakdown, refundAtPartnerApi, type RefundBase, type RefundComputation } from "@/lib/money-moves/refund";
import type { FinancingClient } from "@/lib/financing/client";
import { loggerFor } from "@/lib/logger";
import { recordAudit } from "@/lib/audit/audit";
import { staffOperationActor, type StaffActor } from "@/lib/money-moves/staff-actor";
import { can, type PermissionHolder } from "@/lib/identity/permissions";
import { ownsOperation, type OwnershipSubject } from "../operations/ownership";
import { reviewRefund, type RefundFieldError, type RefundValues } from "./review";

const log = loggerFor("backoffice");

/** What the server computed for the charges entered: the API's breakdown minus both charges, in cents. */
export type { RefundComputation };

export type RefundErrors = Partial<Record<keyof RefundValues, RefundFieldError>>;

/** Where a refund stands after a step: the form again, the review to confirm, or how it ended. */
export type RefundStep =
  | { step: "edit"; values?: RefundValues; errors?: RefundErrors; base?: RefundBase }
  | { step: "confirm"; values: RefundValues; base: RefundBase; computed: RefundComputation; changed?: boolean }
  | { step: "done"; values: RefundValues; base: RefundBase; computed: RefundComputation; status: string | null }
  | { step: "rejected"; status: string | null }
  | { step: "failed"; reason: "not_refundable" | "validation" | "unavailable" | "not_found" | "in_progress"; status: string | null };

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

/** How a refund opens: the form over the API's breakdown, or why there is no refund to make. */
export type RefundOpening =
  { step: "edit"; base: RefundBase } | { step: "failed"; reason: "not_refundable" | "unavailable" | "not_found"; status: string | null };

/**
 * The refund page's first step, for a member the page let refund: someone else's operation is "not
 * found" before any partner API call, as is one the API does not know or does not let this key see;
 * one that is not refundable says its status, when known.
 */
export async function openRefund(
  staff: OwnershipSubject & { client: Pick<FinancingClient, "getRefundDetails" | "getStatus"> },
  operationId: string,
): Promise<RefundOpening> {
  if (!(await ownsOperation(staff, operationId))) return { step: "failed", reason: "not_found", status: null };
  const breakdown = await readRefundBreakdown(staff.client, operationId);
  if (breakdown.ok) return { step: "edit", base: breakdown.base };
  if (breakdown.reason === "not_refundable") return { step: "failed", reason: "not_refundable", status: breakdown.status };
  const unknown = breakdown.httpStatus === 403 || breakdown.httpStatus === 404;
  return { step: "failed", reason: unknown ? "not_found" : "unavailable", status: null };
}

/**
 * One step of a refund: edit the charges, review the server's computation, confirm. Amounts are
 * recomputed from a fresh breakdown at each step, never taken from the form. Someone else's
 * operation (a forged id) is "not found" and nothing is asked of the API, as it is for a member
 * without the refund permission (that refusal audited). The refund itself is the one the checkout
 * sessions API makes too (lib/money-moves/refund.ts): once per operation at a time,
 * audited with the amounts asked for, whatever its result.
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

  const breakdown = await readRefundBreakdown(staff.client, operationId);
  if (!breakdown.ok)
    return { step: "failed", reason: breakdown.reason, status: breakdown.reason === "not_refundable" ? breakdown.status : null };
  const { base } = breakdown;

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

  const refunded = await refundAtPartnerApi(staffOperationActor(staff, origin.ip), staff.client, {
    operationId,
    base,
    computed,
    reason: review.reason,
  });
  if (refunded.ok) return { step: "done", values, base, computed, status: refunded.status };
  if (refunded.reason === "rejected") return { step: "rejected", status: refunded.status };
  return { step: "failed", reason: refunded.reason, status: refunded.reason === "not_refundable" ? refunded.status : null };
}
