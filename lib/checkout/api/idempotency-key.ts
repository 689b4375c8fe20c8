import { createHash } from "node:crypto";
import { AppError } from "@/lib/app-error";
import { canonicalJson } from "../session/booking";

/**
 * The `Idempotency-Key` header of the checkout sessions API's POSTs, as rules: its format, what
 * makes two requests the same, which answers are kept. Pure (the OpenAPI document states them);
 * the keys themselves are kept by lib/checkout/api/idempotency.ts.
 */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Printable ASCII (space to `~`), not starting or ending with a space (a header value is trimmed). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The request's key: undefined without the header, else the key, or a 400 `validation_failed`
 * naming the header when it is not 1 to 255 printable ASCII characters.
 */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const key = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  if (key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && IDEMPOTENCY_KEY_PATTERN.test(key)) return key;
  const message = `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters (a UUID, for one)`;
  throw new AppError("validation_failed", `${IDEMPOTENCY_KEY_HEADER} ${message}`, {
    fields: [{ field: IDEMPOTENCY_KEY_HEADER, message }],
  });
}

/**
 * What makes two requests "the same" for a key: their body as JSON in a canonical form (keys
 * sorted: a client that serialises its object again in another order still retries the same
 * request), or as sent when it is not JSON.
 */
export function requestFingerprint(body: string): string {
  let text: string;
  try {
    text = `json:${canonicalJson(JSON.parse(body))}`;
  } catch {
    text = `raw:${body}`;
  }
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Whether an answer is kept for replays: any below 500 but 429 and those that say when to try again
 * (`Retry-After`: a customer's data still in use). A 5xx or a 429 says nothing about the request
 * itself (a fault of ours, a budget spent), and a "not yet" stops being true: retried with the same
 * key, the request runs again.
 */
export function isKeptAnswer(status: number, headers?: Headers): boolean {
  return status < 500 && status !== 429 && !headers?.has("retry-after");
}
