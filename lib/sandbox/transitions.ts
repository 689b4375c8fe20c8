import type { OperationStatus, WebhookStatus } from "@/lib/financing/contract";
import { WEBHOOK_STATUSES } from "@/lib/financing/contract";
import { businessError, validationError, type SandboxError } from "./errors";
import { agencyHasProviders, alternativesWithSameInstallments, computeOffers, type SandboxOffer } from "./offers";
import {
  CANCELLATION_FEE_BPS,
  EXPIRABLE,
  EXPIRY_SECONDS,
  type Change,
  type SandboxOperation,
  type StartFinancingOutcome,
} from "./operation";

/**
 * The state machine the QA guide (docs/qa/README.md) lists, and the triggers' effect on it: each
 * rule changes one operation in memory within a `Change` and throws a SandboxError to refuse. The
 * engine runs them under the operation's row lock (`SandboxEngine.mutate`), which writes the
 * result and the emitted webhook events together.
 */

/** Statuses that never change again. ERROR is not one: the spec lets it be cancelled. */
const FINAL: readonly OperationStatus[] = ["REFUSED", "REFUNDED", "CANCELLED", "EXPIRED", "FINISHED"];

export function transition(operation: SandboxOperation, to: OperationStatus, change: Change, note?: string): void {
  if (FINAL.includes(operation.status)) {
    // A final status never moves (REFUNDED and FINISHED leave CONFIRMED, which is not final here).
    throw new Error(`sandbox: ${operation.id} is ${operation.status}, cannot become ${to}`);
  }
  operation.status = to;
  operation.updatedAt = change.now;
  operation.history.push({ status: to, at: new Date(change.now).toISOString(), ...(note ? { note } : {}) });
  if ((WEBHOOK_STATUSES as readonly string[]).includes(to)) change.emitted.push(to as WebhookStatus);
}

/** The offers this operation is eligible for now (refused installment counts removed). */
export function offersFor(operation: SandboxOperation): SandboxOffer[] {
  if (operation.triggers.has("not_eligible") || !agencyHasProviders(operation.agencyId)) {
    throw businessError(422, "NOT_ELIGIBLE_FOR_FINANCING", `Operation ${operation.id} is not eligible for financing`);
  }
  return computeOffers(operation.agencyId, operation.countryCode, operation.totalPriceCents).filter(
    (offer) => !operation.refusedInstallments.has(offer.installments),
  );
}

export function startFinancingOn(operation: SandboxOperation, offerId: number, origin: string, change: Change): StartFinancingOutcome {
  if (operation.status !== "GENERATED" && operation.status !== "PENDING") {
    throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} is ${operation.status}: financing cannot start`, {
      operationStatus: operation.status,
    });
  }
  const offers = operation.triggers.has("not_eligible") ? [] : offersFor(operation);
  const chosen = offers.find((offer) => offer.id === offerId);
  if (!chosen) {
    throw businessError(422, "NOT_ELIGIBLE_FINANCIAL_OFFER", `Offer ${offerId} is not available for operation ${operation.id}`);
  }
  const t = operation.triggers;

  if (t.has("error")) {
    transition(operation, "ERROR", change, "technical error while requesting financing");
    return { financingStatus: "ERROR", paymentUrl: null, hasAlternativeFinancialOffers: false };
  }
  if (t.has("refuse_all")) {
    transition(operation, "REFUSED", change, "every provider refused the customer");
    return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
  }
  // Only the first count chosen is refused (+refuse_offer), or fails with a technical error
  // (+error_offer), so the customer can go on with an alternative.
  const failOffer = t.has("refuse_offer") ? "REFUSED" : t.has("error_offer") ? "ERROR" : undefined;
  if (failOffer && operation.refusedInstallments.size === 0) {
    operation.refusedInstallments.add(chosen.installments);
    operation.history.push({
      status: operation.status,
      at: new Date(change.now).toISOString(),
      note:
        failOffer === "REFUSED"
          ? `every provider refused ${chosen.installments} installments`
          : `technical error requesting ${chosen.installments} installments`,
    });
    const alternatives = offers.filter((offer) => !operation.refusedInstallments.has(offer.installments));
    if (alternatives.length === 0) {
      transition(operation, "REFUSED", change, "every provider refused the customer");
      return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
    }
    return { financingStatus: failOffer, paymentUrl: null, hasAlternativeFinancialOffers: true };
  }

  let accepted = chosen;
  const refusedProviders: string[] = [];
  if (t.has("refuse_first")) {
    // The chosen provider refuses; the service moves on to another with the same installment count.
    refusedProviders.push(chosen.providerId);
    const next = alternativesWithSameInstallments(operation.agencyId, operation.countryCode, operation.totalPriceCents, chosen.id)[0];
    if (!next) {
      operation.refusedInstallments.add(chosen.installments);
      const left = offers.some((offer) => !operation.refusedInstallments.has(offer.installments));
      if (!left) transition(operation, "REFUSED", change, "every provider refused the customer");
      return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: left };
    }
    accepted = next;
  }

  const requestToken = crypto.randomUUID().replaceAll("-", "");
  operation.financing = { requestToken, offer: accepted, refusedProviders };
  const note =
    refusedProviders.length > 0
      ? `${chosen.companyName} refused; ${accepted.companyName} accepted ${accepted.installments} installments`
      : `${accepted.companyName} accepted ${accepted.installments} installments`;
  transition(operation, "CLIENT_REQUESTED", change, note);
  return { financingStatus: "REQUESTED", paymentUrl: `${origin}/sandbox/provider/checkout/${requestToken}` };
}

export function decideOn(operation: SandboxOperation, decision: "approve" | "decline" | "error", change: Change): void {
  if (operation.status !== "CLIENT_REQUESTED" && operation.status !== "PENDING_RESPONSE") {
    throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} has no pending provider request (${operation.status})`, {
      operationStatus: operation.status,
    });
  }
  if (decision === "approve") {
    transition(operation, "FAVORABLE", change, "provider approved");
    transition(operation, "CONFIRMED", change, "financing confirmed");
  } else if (decision === "decline") {
    transition(operation, "REFUSED", change, "provider declined");
  } else {
    transition(operation, "ERROR", change, "technical error at the provider");
  }
}

export function refundBreakdown(operation: SandboxOperation, extraFeesCents = 0) {
  if (operation.status !== "CONFIRMED") {
    throw businessError(
      400,
      "OPERATION_NOT_REFUNDABLE",
      `Operation ${operation.id} is ${operation.status}: only CONFIRMED operations are refunded`,
      {
        operationStatus: operation.status,
      },
    );
  }
  const totalReserve = operation.totalPriceCents + operation.managementFeeCents;
  const cancellationFee = Math.round((operation.totalPriceCents * CANCELLATION_FEE_BPS) / 10_000);
  return {
    operationId: operation.id,
    totalReserveCents: totalReserve,
    managementFeesCents: operation.managementFeeCents,
    cancellationFeeCents: cancellationFee,
    cancellationFeePercentage: CANCELLATION_FEE_BPS / 100,
    totalToRefundCents: totalReserve - operation.managementFeeCents - cancellationFee - extraFeesCents,
  };
}

/** The customer signed at the provider checkout; the provider then decides (+decline refuses). */
export function signOn(operation: SandboxOperation, change: Change): void {
  if (operation.status !== "CLIENT_REQUESTED") throw notAwaitingCustomer(operation);
  transition(operation, "PENDING_RESPONSE", change, "customer signed at the provider");
  decideOn(operation, operation.triggers.has("decline") ? "decline" : "approve", change);
}

/** The customer declined to sign at the provider checkout. */
export function declineAtCheckoutOn(operation: SandboxOperation, change: Change): void {
  if (operation.status !== "CLIENT_REQUESTED") throw notAwaitingCustomer(operation);
  transition(operation, "REFUSED", change, "customer declined at the provider checkout");
}

export function cancelOn(operation: SandboxOperation, reason: string | undefined, change: Change): void {
  if (!["GENERATED", "PENDING", "ERROR"].includes(operation.status)) {
    throw businessError(400, "OPERATION_NOT_CANCELLABLE", `Operation ${operation.id} cannot be cancelled in status ${operation.status}`, {
      operationStatus: operation.status,
    });
  }
  transition(operation, "CANCELLED", change, reason ? `cancelled: ${reason}` : "cancelled");
}

export function refundOn(
  operation: SandboxOperation,
  fees: { agencyCents: number; providerCents: number },
  reason: string | undefined,
  change: Change,
): ReturnType<typeof refundBreakdown> {
  const breakdown = refundBreakdown(operation, fees.agencyCents + fees.providerCents);
  if (breakdown.totalToRefundCents < 0) {
    throw validationError([{ field: "agencyCancellationFee", message: "the cancellation fees exceed what can be refunded" }]);
  }
  if (operation.triggers.has("refund_reject")) {
    // Nothing changes and no charge is recorded.
    throw businessError(422, "OPERATION_NOT_REFUNDABLE", `The provider rejected the refund of operation ${operation.id}`);
  }
  transition(operation, "REFUNDED", change, reason ? `refunded: ${reason}` : "refunded");
  return breakdown;
}

/** The time limit, re-checked on the operation as stored now (another tick may have got there first). */
export function expireIfDue(operation: SandboxOperation, change: Change): void {
  if (EXPIRABLE.includes(operation.status) && change.now - operation.createdAt >= EXPIRY_SECONDS * 1000) {
    transition(operation, "EXPIRED", change, "time limit passed");
  }
}

/** The trip's end, re-checked like `expireIfDue`. */
export function finishIfDue(operation: SandboxOperation, change: Change): void {
  if (operation.status === "CONFIRMED" && operation.travelEndDate && change.now >= Date.parse(`${operation.travelEndDate}T23:59:59Z`)) {
    transition(operation, "FINISHED", change, "travel date passed");
  }
}

function notAwaitingCustomer(operation: SandboxOperation): SandboxError {
  return businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} is ${operation.status}`, {
    operationStatus: operation.status,
  });
}
