/**
 * The request id: one per incoming request (proxy.ts accepts a well-formed `X-Request-Id` or makes
 * one), on every log line written for it, and sent upstream as the partner API call's
 * `X-Request-Id`. Pure helpers: the proxy, the sandbox and tests import them.
 */
export const REQUEST_ID_HEADER = "x-request-id";

// Letters, digits and a few separators, as UUIDs and most tracing systems' ids are: nothing that can
// smuggle text into a log line or a header.
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{7,127}$/;

export function isRequestId(value: unknown): value is string {
  return typeof value === "string" && WELL_FORMED.test(value);
}

export function newRequestId(): string {
  return crypto.randomUUID();
}

/** The incoming id when well-formed, else a new one. */
export function requestIdFrom(value: string | null | undefined): string {
  return isRequestId(value) ? value : newRequestId();
}
