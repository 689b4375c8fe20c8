import { createHash, timingSafeEqual } from "node:crypto";

/** Whether a bearer token is the expected secret, in time that tells nothing of either. */
export function sameSecret(given: string, expected: string): boolean {
  // Hashed first: timingSafeEqual needs equal lengths, and the length must not leak either.
  return timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());
}
