import "server-only";
import { openSecret, sealSecret } from "@/lib/security/secrets";

/**
 * Where a staff member's TOTP secret goes in and out of the database: sealed at rest with the
 * partners' secrets' keys (SECRETS_KEYS, AES-256-GCM, lib/security/secrets.ts), bound to its column
 * so a sealed value copied into another column does not open. A value stored before sealing
 * existed (plaintext) still opens as it is.
 */

const CONTEXT = "staff_users.totp_secret";
/** The secret shown to one session for enrolment: sealed for its own column, so it only opens there. */
const PENDING_CONTEXT = "staff_sessions.totp_pending_secret";

export function storeTotpSecret(plaintext: string): string {
  return sealSecret(plaintext, CONTEXT);
}

export function readTotpSecret(stored: string): string {
  return openSecret(stored, CONTEXT);
}

export function storePendingTotpSecret(plaintext: string): string {
  return sealSecret(plaintext, PENDING_CONTEXT);
}

export function readPendingTotpSecret(stored: string): string {
  return openSecret(stored, PENDING_CONTEXT);
}
