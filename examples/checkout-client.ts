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

/** `baseUrl`: the `servers` URL of the document, e.g. `https://checkout.example.com/api`. */
export function checkoutApi(baseUrl: string, partnerSecret: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${partnerSecret}` } });
}

/** Opens a session for a booking (again: the same session) and returns where to send the customer. */
export async function openCheckout(api: ReturnType<typeof checkoutApi>, request: NewCheckoutSession): Promise<CheckoutSession> {
  const { data, error, response } = await api.POST("/checkout-sessions", { body: request });
  if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  return data; // data.url: where to send the customer
}

/** Reads where a session stands: the reference whenever a notification or a return says it changed. */
export async function readCheckout(api: ReturnType<typeof checkoutApi>, id: string): Promise<CheckoutSession> {
  const { data, error, response } = await api.GET("/checkout-sessions/{id}", { params: { path: { id } } });
  if (error) throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  return data; // data.state, data.final
}
