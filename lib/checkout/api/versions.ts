import { AppError } from "@/lib/app-error";
// Registers the API's own codes (thrown here) with the error type.
import "./error-codes";

/**
 * The checkout sessions API's versions, the one list of them: a request may pin one with the
 * `Checkout-Api-Version` header, and every answer says in which one it is given (the same header).
 * A version is the date its contract was fixed; the last one is the current one, answered to a
 * request that pins none. A change a partner's code could trip on gets a new date here, and the
 * handlers branch on the version they are given.
 */
export const CHECKOUT_API_VERSIONS = ["2026-11-28"] as const;
export type CheckoutApiVersion = (typeof CHECKOUT_API_VERSIONS)[number];

export const CURRENT_CHECKOUT_API_VERSION: CheckoutApiVersion = CHECKOUT_API_VERSIONS[CHECKOUT_API_VERSIONS.length - 1]!;

/** The request and response header (HTTP header names are case-insensitive). */
export const VERSION_HEADER = "Checkout-Api-Version";

function isVersion(value: string): value is CheckoutApiVersion {
  return (CHECKOUT_API_VERSIONS as readonly string[]).includes(value);
}

/**
 * The version a request is answered in: the one it pins, or the current one. A pinned version we
 * do not know (or an empty header) is a 400 `unsupported_api_version` naming the header and the
 * versions there are.
 */
export function requestedVersion(headers: Headers): { ok: true; version: CheckoutApiVersion } | { ok: false; error: AppError } {
  const pinned = headers.get(VERSION_HEADER);
  if (pinned === null) return { ok: true, version: CURRENT_CHECKOUT_API_VERSION };
  if (isVersion(pinned)) return { ok: true, version: pinned };
  const message = `must be one of: ${CHECKOUT_API_VERSIONS.join(", ")}`;
  return {
    ok: false,
    error: new AppError("unsupported_api_version", `${VERSION_HEADER} ${message} (or left out, for ${CURRENT_CHECKOUT_API_VERSION})`, {
      fields: [{ field: VERSION_HEADER, message }],
    }),
  };
}
