/*
 * A partner's backend calling the checkout sessions API with a typed client: the types are generated
 * from /api/openapi.json by openapi-typescript (`examples/checkout-api.d.ts`), the calls made by
 * openapi-fetch. docs/integrators/api-reference.md shows this file; e2e/openapi.spec.ts runs it against the app, and the
 * project's type check checks it against the generated types.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./checkout-api";

export type CheckoutSession = components["schemas"]["CheckoutSession"];
export type NewCheckoutSession = components["schemas"]["CreateCheckoutSessionRequest"];

/** The version of the API this code was written for: pinned on every call, so a newer one changes nothing here. */
export const CHECKOUT_API_VERSION: components["parameters"]["CheckoutApiVersion"] = "2026-11-28";

/** `baseUrl`: the `servers` URL of the document, e.g. `https://checkout.example.com/api`. */
export function checkoutApi(baseUrl: string, partnerSecret: string) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${partnerSecret}`, "Checkout-Api-Version": CHECKOUT_API_VERSION },
  });
}

/**
 * Opens a session for a booking (again: the same session) and returns where to send the customer.
 * `idempotencyKey`: made once for this booking's request (`crypto.randomUUID()`) and sent again with
 * every retry of it (after a timeout, a 5xx, a 409 or a 429): the API then answers what it answered
 * the first time, `Idempotent-Replayed: true`, instead of acting twice.
 */
export async function openCheckout(
  api: ReturnType<typeof checkoutApi>,
  request: NewCheckoutSession,
  idempotencyKey: string,
): Promise<CheckoutSession> {
  const { data, error, response } = await api.POST("/checkout-sessions", {
    body: request,
    params: { header: { "Idempotency-Key": idempotencyKey } },
  });
  if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  return data; // data.url: where to send the customer
}

/** Reads where a session stands: the reference whenever a notification or a return says it changed. */
export async function readCheckout(api: ReturnType<typeof checkoutApi>, id: string): Promise<CheckoutSession> {
  const { data, error, response } = await api.GET("/checkout-sessions/{id}", { params: { path: { id } } });
  if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  return data; // data.state, data.final
}
