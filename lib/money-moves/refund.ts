import "server-only";
import { randomUUID } from "node:crypto";
import { acquireLease, releaseLease } from "@/lib/db/leases";
import type { FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError, type FinancingApiError } from "@/lib/financing/errors";
import { money } from "@/lib/financing/money";
import { logError, loggerFor } from "@/lib/logger";
import { auditOperationEvent, type OperationActor } from "./actor";
import { refundBaseOf, type RefundBase, type RefundComputation } from "./refund-arithmetic";

export { computeRefund, refundBaseOf, type RefundBase, type RefundComputation } from "./refund-arithmetic";

const log = loggerFor("checkout");

/**
 * A refund of a confirmed operation at the partner API, for a staff member (the back-office's
 * refund form) or a partner's backend (the checkout sessions API), whose ownership of the operation
 * the caller has checked. The rules are the partner API's (docs/partner-api.md): only a CONFIRMED
 * operation is refunded; `totalToRefund` of its breakdown already deducts the non-refundable fees
 * and the service's cancellation fee, and the agency's and the provider's charges sent with the
 * refund lower it by as much; a provider's refusal is a 422 that changes nothing.
 *
 * Money moves once: a refund holds the database lease `refund:{operationId}` (lib/db/leases.ts)
 * while its call is made, so two refunds at once, from any instances, any caller, make one call
 * and the other is refused (`in_progress`) without asking the API. A call whose outcome is unknown
 * (no answer, a 5xx) keeps the lease until it lapses, REFUND_CLAIM_MS later: whether it happened
 * is for the operation's status to tell, not for a retry to find out.
 */

/** How long a refund's claim holds: far longer than a call takes; a claim whose holder died lapses then. */
export const REFUND_CLAIM_MS = 5 * 60_000;

export type BreakdownOutcome =
  | { ok: true; base: RefundBase }
  | { ok: false; reason: "not_refundable"; status: string | null }
  /** `httpStatus`: the API's answer, when it gave one (a 404 says it knows no such operation). */
  | { ok: false; reason: "unavailable"; httpStatus?: number };

/** The breakdown of what a refund now would give back, or why there is none. */
export async function readRefundBreakdown(
  client: Pick<FinancingClient, "getRefundDetails" | "getStatus">,
  operationId: string,
): Promise<BreakdownOutcome> {
  try {
    return { ok: true, base: refundBaseOf(await client.getRefundDetails(operationId)) };
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "reading the refund breakdown failed", error);
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { ok: false, reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(client, operationId)) };
    }
    return { ok: false, reason: "unavailable", httpStatus: error.status };
  }
}

export type RefundOutcome =
  /** Refunded: the operation's status read afterwards (null when it could not be read). */
  | { ok: true; status: string | null }
  /** Another refund of this operation is under way (or its outcome is not known yet): nothing was asked. */
  | { ok: false; reason: "in_progress" }
  /** The provider rejected it: nothing changed. */
  | { ok: false; reason: "rejected"; status: string | null }
  /** Not CONFIRMED (any more): the status, when known. */
  | { ok: false; reason: "not_refundable"; status: string | null }
  /** The API refused the amounts. */
  | { ok: false; reason: "validation" }
  /** No answer, or one that says nothing: whether it happened is for the status to tell. */
  | { ok: false; reason: "unavailable" };

/**
 * Refunds `computed` (the charges, checked against `base` by the caller) for `actor`, once, and
 * audits the call with the amounts asked for, whatever its result (the reason typed is sent, never
 * audited). `details` adds to the audit's (a booking reference).
 */
export async function refundAtPartnerApi(
  actor: OperationActor,
  client: Pick<FinancingClient, "refund" | "getStatus">,
  input: {
    operationId: string;
    base: RefundBase;
    computed: RefundComputation;
    reason: string;
    details?: Record<string, string | number>;
  },
  now = new Date(),
): Promise<RefundOutcome> {
  const { operationId, base, computed } = input;
  const claim = `refund:${operationId}`;
  const holder = randomUUID();
  if (!(await acquireLease(actor.db, claim, holder, now, REFUND_CLAIM_MS))) {
    log.info({ by: actor.who.kind }, "a refund was refused: another refund of the operation is under way");
    return { ok: false, reason: "in_progress" };
  }
  const amounts = {
    ...input.details,
    currency: base.currency,
    agencyFeeCents: computed.agencyFeeCents,
    providerFeeCents: computed.providerFeeCents,
    chargesCents: computed.chargesCents,
    totalToRefundCents: computed.totalToRefundCents,
  };
  const audit = (result: "ok" | "failed", details: Record<string, string | number>) =>
    auditOperationEvent(actor, { kind: "operation_refunded", operationId, result, details });
  try {
    await client.refund(operationId, {
      agencyCancellationFee: money(computed.agencyFeeCents, base.currency),
      providerCancellationFee: money(computed.providerFeeCents, base.currency),
      reason: input.reason.trim() || undefined,
    });
  } catch (error) {
    if (!isFinancingApiError(error)) {
      await releaseLease(actor.db, claim, holder);
      throw error;
    }
    logError(log, "refund failed", error, { by: actor.who.kind });
    await audit("failed", { ...amounts, status: error.status ?? 0 });
    // Not retried (money moves); an unknown outcome keeps the claim until it lapses.
    if (outcomeUnknown(error)) return { ok: false, reason: "unavailable" };
    await releaseLease(actor.db, claim, holder);
    if (error.is("OPERATION_NOT_REFUNDABLE") && error.status === 422) {
      return { ok: false, reason: "rejected", status: await currentStatus(client, operationId) };
    }
    if (error.is("OPERATION_NOT_REFUNDABLE")) {
      return { ok: false, reason: "not_refundable", status: error.operationStatus ?? (await currentStatus(client, operationId)) };
    }
    if (error.status === 400) return { ok: false, reason: "validation" };
    return { ok: false, reason: "unavailable" };
  }
  await audit("ok", amounts);
  // Refunded: a refund that comes next is refused by the API itself (no longer CONFIRMED).
  await releaseLease(actor.db, claim, holder);
  return { ok: true, status: await currentStatus(client, operationId) };
}

/** No answer, or an answer that does not say the refund was refused: it may have happened. */
function outcomeUnknown(error: FinancingApiError): boolean {
  if (error.kind === "invalid_request") return false;
  return error.status === undefined || error.status >= 500 || error.kind === "contract";
}

async function currentStatus(client: Pick<FinancingClient, "getStatus">, operationId: string): Promise<string | null> {
  try {
    return (await client.getStatus(operationId)).status.status;
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "reading the status after a refund failed", error);
    return null;
  }
}
