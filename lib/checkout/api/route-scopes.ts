import type { ApiScope } from "@/lib/vocabulary/api-scopes";

/**
 * The scope each operation of the checkout sessions API needs, by its route: the API's wrapper
 * checks it before a POST's Idempotency-Key is claimed (a refusal is never kept for a replay), each
 * handler asks for it again when it authenticates, and the OpenAPI document says it on every
 * operation (an operation missing here fails the document's build).
 *
 * Reading what a refund would give back is a read: it moves nothing.
 */
export const ROUTE_SCOPES = {
  "POST /api/checkout-sessions": "sessions:open",
  "GET /api/checkout-sessions": "sessions:read",
  "GET /api/checkout-sessions/[id]": "sessions:read",
  "POST /api/checkout-sessions/[id]/cancel": "sessions:cancel",
  "GET /api/checkout-sessions/[id]/refund": "sessions:read",
  "POST /api/checkout-sessions/[id]/refund": "sessions:refund",
  "POST /api/checkout-sessions/[id]/erase": "sessions:erase",
  "GET /api/events": "sessions:read",
} as const satisfies Record<string, ApiScope>;
export type CheckoutApiRoute = keyof typeof ROUTE_SCOPES;

/** The scope of an operation of the OpenAPI document (`post`, `/checkout-sessions/{id}/cancel`), if it is one of the API's. */
export function scopeOfOperation(method: string, path: string): ApiScope | undefined {
  const route = `${method.toUpperCase()} /api${path.replace(/\{(\w+)\}/g, "[$1]")}`;
  return (ROUTE_SCOPES as Record<string, ApiScope>)[route];
}
