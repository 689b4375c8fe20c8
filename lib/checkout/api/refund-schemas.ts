import { z } from "zod";
import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import { safeText } from "@/lib/validation/text";
import { MAX_CHARGE_CENTS } from "@/lib/money-moves/refund-arithmetic";
import { checkoutSessionSchema, operationId, sessionId } from "./api-schemas";

/**
 * The checkout sessions API's cancel, erase and refund resources (POST /checkout-sessions/{id}/cancel,
 * POST …/erase, GET and POST …/refund): their requests and answers, in cents.
 */

const reason = () =>
  z
    .string()
    .max(REASON_MAX_LENGTH, `must be at most ${REASON_MAX_LENGTH} characters`)
    .check(safeText())
    .optional()
    .meta({ description: "Why, for the financing partner's records (kept in the operation's history there); not shown to the customer." });

export const cancelSessionRequestSchema = z.strictObject({ reason: reason() }).meta({
  id: "CancelCheckoutSessionRequest",
  description: "An empty body (or none) cancels without a reason.",
});
export type CancelSessionRequest = z.output<typeof cancelSessionRequestSchema>;

export const eraseSessionRequestSchema = z.strictObject({}).meta({
  id: "EraseCheckoutSessionCustomerDataRequest",
  description: "An empty body, or none.",
});

const cents = (description: string) =>
  z
    .number({ error: "must be a whole number of cents" })
    .int("must be a whole number of cents")
    .min(0, "must not be negative")
    .max(MAX_CHARGE_CENTS, `must be at most ${MAX_CHARGE_CENTS}`)
    .meta({ description, format: "int32" });
/** An amount the API answers: whole cents, never negative, never past MAX_CHARGE_CENTS. */
const answeredCents = (description: string) => z.int().min(0).max(MAX_CHARGE_CENTS).meta({ description, format: "int32" });
const currency = () =>
  z
    .string()
    .regex(/^[A-Z]{3}$/)
    .max(3)
    .meta({ description: "ISO 4217: EUR.", examples: ["EUR"] });

export const refundBreakdownSchema = z
  .object({
    sessionId: sessionId(),
    operationId: operationId(),
    currency: currency(),
    totalReserveCents: answeredCents("What the customer's financing holds: the trip's price and the management fees."),
    managementFeesCents: answeredCents("The financing's management fees: not refunded."),
    cancellationFeeCents: answeredCents("The financing service's cancellation fee: not refunded."),
    cancellationFeePercentage: z.number().min(0).max(100).meta({ description: "That fee, as a percentage of the trip's price." }),
    totalToRefundCents: answeredCents(
      "What a refund now gives back with no charge of yours: the reserve minus both fees. Your charges lower it by as much.",
    ),
  })
  .meta({
    id: "CheckoutSessionRefundBreakdown",
    description: "What a refund of the session's confirmed financing would give back now, as the financing partner computes it.",
  });
export type RefundBreakdownResource = z.output<typeof refundBreakdownSchema>;

export const refundSessionRequestSchema = z
  .strictObject({
    agencyFeeCents: cents("Your agency's cancellation charge, kept from the refund. Default 0.").optional(),
    providerFeeCents: cents("The travel provider's cancellation charge, kept from the refund. Default 0.").optional(),
    reason: reason(),
    expectedTotalToRefundCents: z
      .number({ error: "must be a whole number of cents" })
      .int("must be a whole number of cents")
      .min(0, "must not be negative")
      .max(MAX_CHARGE_CENTS, `must be at most ${MAX_CHARGE_CENTS}`)
      .optional()
      .meta({
        format: "int32",
        description:
          "What you expect to be refunded (the breakdown's `totalToRefundCents` minus your charges). When sent, the refund is made only if that is still the total: otherwise 409 `conflict`, nothing refunded.",
      }),
  })
  .meta({
    id: "RefundCheckoutSessionRequest",
    description:
      "Your charges, in cents, and why. Together they may not exceed the breakdown's `totalToRefundCents`. An empty body (or none) refunds everything the breakdown says.",
  });
export type RefundSessionRequest = z.output<typeof refundSessionRequestSchema>;

export const sessionRefundSchema = z
  .object({
    session: checkoutSessionSchema,
    refund: z.object({
      currency: currency(),
      agencyFeeCents: answeredCents("Your agency's charge, kept."),
      providerFeeCents: answeredCents("The travel provider's charge, kept."),
      chargesCents: answeredCents("Both charges."),
      totalToRefundCents: answeredCents("What was refunded to the customer."),
    }),
  })
  .meta({
    id: "CheckoutSessionRefund",
    description: "The refund made, and the session after it (`refunded` once the financing partner says so).",
  });
export type SessionRefundResource = z.output<typeof sessionRefundSchema>;
