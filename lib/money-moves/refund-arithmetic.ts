/**
 * A refund's arithmetic, in integer cents: pure, so the back-office's refund form's script (which
 * only previews as the charges are typed), its server and the checkout sessions API compute the
 * same figures. The partner API's rule (docs/partner-api.md): `totalToRefund` already deducts the
 * non-refundable fees and the service's cancellation fee; any agency or provider cancellation
 * charge sent with the refund lowers it by the same value.
 */
import type { RefundBreakdown } from "@/lib/financing/types";

/** The largest charge taken: ten million euros, far above any trip, far below 2^31 cents (and 2^53). */
export const MAX_CHARGE_CENTS = 1_000_000_000;

/** The breakdown `GET /operations/{id}/refund/details` gave, in cents. */
export interface RefundBase {
  currency: string;
  totalReserveCents: number;
  managementFeesCents: number;
  cancellationFeeCents: number;
  cancellationFeePercentage: number;
  /** What the API would refund with no agency or provider charge. */
  totalToRefundCents: number;
}

/** The charges asked for and what is then refunded: the API's total minus both charges, in cents. */
export interface RefundComputation {
  agencyFeeCents: number;
  providerFeeCents: number;
  chargesCents: number;
  /** Below zero when the charges exceed what can be refunded: the API would refuse it (400). */
  totalToRefundCents: number;
}

/** The API's breakdown (`GET /operations/{id}/refund/details`) as the refund's arithmetic takes it. */
export function refundBaseOf(details: RefundBreakdown): RefundBase {
  return {
    currency: details.totalToRefund.currency,
    totalReserveCents: details.totalReserve.cents,
    managementFeesCents: details.managementFees.cents,
    cancellationFeeCents: details.serviceCancellationFee.cents,
    cancellationFeePercentage: details.serviceCancellationFeePercentage,
    totalToRefundCents: details.totalToRefund.cents,
  };
}

export function computeRefund(base: RefundBase, charges: { agencyFeeCents: number; providerFeeCents: number }): RefundComputation {
  const chargesCents = charges.agencyFeeCents + charges.providerFeeCents;
  return {
    agencyFeeCents: charges.agencyFeeCents,
    providerFeeCents: charges.providerFeeCents,
    chargesCents,
    totalToRefundCents: base.totalToRefundCents - chargesCents,
  };
}
