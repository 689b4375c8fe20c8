/**
 * The refund form's arithmetic, in integer cents, shared by the server (which decides) and the refund
 * form's script (which only previews as the charges are typed): the charges as staff type them, and
 * the total recomputed with the partner API's rule (lib/money-moves/refund-arithmetic.ts,
 * which the checkout sessions API's refunds use too); the server always recomputes from a fresh
 * `refund/details`.
 */
import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import { computeRefund, MAX_CHARGE_CENTS, type RefundBase } from "@/lib/money-moves/refund-arithmetic";

export { refundBaseOf, type RefundBase } from "@/lib/money-moves/refund-arithmetic";

/**
 * An amount as staff type it, to cents: "25", "25.5", "25,50" (a comma or a point before at most
 * two decimals; no thousands separators, which would be ambiguous between languages). Empty is 0.
 */
export function parseChargeCents(text: string): number | undefined {
  const value = text.trim();
  if (value === "") return 0;
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(value);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return cents <= MAX_CHARGE_CENTS ? cents : undefined;
}

export interface RefundValues {
  agencyFee: string;
  providerFee: string;
  reason: string;
}

export type RefundFieldError = "amount" | "exceeds" | "too_long" | "characters";

export type RefundReview =
  | { ok: true; agencyFeeCents: number; providerFeeCents: number; chargesCents: number; totalToRefundCents: number; reason: string }
  | { ok: false; errors: Partial<Record<keyof RefundValues, RefundFieldError>>; totalToRefundCents: number | undefined };

/**
 * The charges checked and the total to refund recomputed: the API's total minus both charges. A
 * total below zero is refused here, as the API would refuse it (400).
 */
export function reviewRefund(base: RefundBase, values: RefundValues): RefundReview {
  const agencyFeeCents = parseChargeCents(values.agencyFee);
  const providerFeeCents = parseChargeCents(values.providerFee);
  const errors: Partial<Record<keyof RefundValues, RefundFieldError>> = {};
  if (agencyFeeCents === undefined) errors.agencyFee = "amount";
  if (providerFeeCents === undefined) errors.providerFee = "amount";
  if (values.reason.length > REASON_MAX_LENGTH) errors.reason = "too_long";
  if (agencyFeeCents === undefined || providerFeeCents === undefined) return { ok: false, errors, totalToRefundCents: undefined };

  const { chargesCents, totalToRefundCents } = computeRefund(base, { agencyFeeCents, providerFeeCents });
  // Said on the charge (or charges) entered: the one staff must lower.
  if (totalToRefundCents < 0) {
    if (agencyFeeCents > 0) errors.agencyFee = "exceeds";
    if (providerFeeCents > 0) errors.providerFee = "exceeds";
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, totalToRefundCents };
  return { ok: true, agencyFeeCents, providerFeeCents, chargesCents, totalToRefundCents, reason: values.reason.trim() };
}

/** Cents as a decimal string for a form field: 2550 -> "25.50". */
export function centsToInput(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
