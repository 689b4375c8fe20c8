import { defineErrorCodes, type AppErrorCode, type PLATFORM_ERROR_STATUS } from "@/lib/app-error";
// The erasure's refusal is the session domain's, answered by this API: registered with it.
import type { ERASURE_ERROR_STATUS } from "../session/erasure-rule";
import "../session/erasure-rule";

/**
 * The checkout sessions API's own error codes, registered with the app's error type (the
 * platform's are lib/app-error.ts's). Its document lists every code it answers with
 * (API_ERROR_CODES), and the handlers that throw one import this module, which registers them.
 */
export const CHECKOUT_API_ERROR_STATUS = defineErrorCodes({
  unsupported_api_version: 400,
  insufficient_scope: 403,
  not_cancellable: 409,
  not_refundable: 409,
  refund_in_progress: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  session_expired: 410,
  refund_rejected: 422,
  financing_unavailable: 502,
});
type CheckoutApiErrorTable = typeof CHECKOUT_API_ERROR_STATUS;

declare module "@/lib/app-error" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the error type's registry
  interface AppErrorCodes extends CheckoutApiErrorTable {}
}

/** Every code the API answers with, in the order its document lists them. */
export const API_ERROR_CODES = [
  "unauthorized",
  "forbidden",
  "insufficient_scope",
  "not_found",
  "method_not_allowed",
  "validation_failed",
  "unsupported_api_version",
  "payload_too_large",
  "conflict",
  "not_cancellable",
  "not_refundable",
  "refund_in_progress",
  "customer_data_in_use",
  "idempotency_key_in_use",
  "idempotency_key_reused",
  "session_expired",
  "refund_rejected",
  "rate_limited",
  "financing_unavailable",
  "internal",
  "database_unavailable",
] as const satisfies readonly AppErrorCode[];
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

// The list misses no code of the platform's or the API's (a compile error names the one missing).
const everyCodeListed: Exclude<
  keyof typeof PLATFORM_ERROR_STATUS | keyof CheckoutApiErrorTable | keyof typeof ERASURE_ERROR_STATUS,
  ApiErrorCode
> extends never
  ? true
  : never = true;
void everyCodeListed;
