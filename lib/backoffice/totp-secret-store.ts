import "server-only";

/**
 * Where a staff member's TOTP secret goes in and out of the database: the one place that will seal
 * it at rest. For now the value passes as is.
 */

export function storeTotpSecret(plaintext: string): string {
  // MERGE: seal with lib/security/secrets.ts
  return plaintext;
}

export function readTotpSecret(stored: string): string {
  // MERGE: seal with lib/security/secrets.ts
  return stored;
}
