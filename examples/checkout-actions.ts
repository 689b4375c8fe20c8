/*
 * A partner's backend listing, cancelling and refunding its checkout sessions with the typed client
 * of examples/checkout-client.ts (openapi-fetch, types generated from /api/openapi.json into
 * examples/checkout-api.d.ts). docs/integrators/checkout-sessions-api.md shows this file;
 * e2e/sessions-api-actions.spec.ts runs it against the app, and the project's type check checks it
 * against the generated types.
 */
import type { components } from "./checkout-api";
import type { checkoutApi } from "./checkout-client";

type Api = ReturnType<typeof checkoutApi>;
export type CheckoutSession = components["schemas"]["CheckoutSession"];
export type RefundBreakdown = components["schemas"]["CheckoutSessionRefundBreakdown"];
export type Refund = components["schemas"]["CheckoutSessionRefund"];
type ApiError = components["schemas"]["CheckoutApiError"];

/** The API's refusal, with its code and, for a cancel or a refund, the session's state. */
export class CheckoutApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
  }
}

/** Every session opened since `since` in these states (all of them: page after page). */
export async function sessionsSince(api: Api, since: Date, states?: CheckoutSession["state"][]): Promise<CheckoutSession[]> {
  const sessions: CheckoutSession[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await api.GET("/checkout-sessions", {
      // The same filters on every page: only the cursor changes.
      params: { query: { createdFrom: since.toISOString(), state: states?.join(","), limit: 100, cursor } },
    });
    if (error) throw new CheckoutApiError(response.status, error);
    sessions.push(...data.data);
    cursor = data.nextCursor ?? undefined;
  } while (cursor);
  return sessions;
}

/**
 * Cancels a session whose customer has not signed yet. Undefined when it can no longer be
 * cancelled (409 `not_cancellable`): the state says why (a confirmed session is refunded instead).
 */
export async function cancelCheckout(api: Api, id: string, reason: string): Promise<CheckoutSession | undefined> {
  const { data, error, response } = await api.POST("/checkout-sessions/{id}/cancel", { params: { path: { id } }, body: { reason } });
  if (error?.error.code === "not_cancellable") return undefined;
  if (error) throw new CheckoutApiError(response.status, error);
  return data; // data.state: "cancelled"
}

/**
 * Refunds a confirmed session, keeping the agency's charge, if what the customer gets back is
 * still what the breakdown says once the charge is kept. `idempotencyKey`: made once for this
 * refund (`crypto.randomUUID()`) and sent again with any retry of it: the API then answers what it
 * answered the first time instead of acting again.
 */
export async function refundCheckout(
  api: Api,
  id: string,
  agencyFeeCents: number,
  reason: string,
  idempotencyKey: string,
): Promise<Refund> {
  const breakdown = await api.GET("/checkout-sessions/{id}/refund", { params: { path: { id } } });
  if (breakdown.error) throw new CheckoutApiError(breakdown.response.status, breakdown.error);
  const { data, error, response } = await api.POST("/checkout-sessions/{id}/refund", {
    params: { path: { id }, header: { "Idempotency-Key": idempotencyKey } },
    body: { agencyFeeCents, reason, expectedTotalToRefundCents: breakdown.data.totalToRefundCents - agencyFeeCents },
  });
  // 409 refund_in_progress: another refund of it is under way; 422 refund_rejected: the provider
  // refused it, nothing changed; 502: not known whether it was made, so read the session first.
  if (error) throw new CheckoutApiError(response.status, error);
  return data; // data.session.state: "refunded"; data.refund.totalToRefundCents
}
