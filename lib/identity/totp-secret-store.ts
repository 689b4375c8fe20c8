import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { staffUsers } from "@/lib/db/schema";
import { needsReseal, openWith, SecretOpenError, sealWith } from "@/lib/security/secrets/secret-box";
import type { Keyring } from "@/lib/config/keyring";
import { openSecret, sealSecret } from "@/lib/security/secrets/secrets";

/**
 * Where a staff member's TOTP secret goes in and out of the database: sealed at rest with the
 * partners' secrets' keys (SECRETS_KEYS, AES-256-GCM, lib/security/secrets/secrets.ts), bound to its column
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

/**
 * Seals again, under the current key (the first of SECRETS_KEYS), every enrolled TOTP secret
 * stored as plaintext or under an older key, as the partners' secrets are at start: after a
 * rotation the old key can go once the server has started with the new one first. A row is written
 * only if it has not changed meanwhile (another instance starting, its owner enrolling again). A
 * secret no listed key opens does not stop the start, unlike a partner's: only its owner's second
 * step fails, until an admin resets it; it is counted for the log.
 */
export async function resealTotpSecrets(db: Db, keyring: Keyring): Promise<{ resealed: number; unreadable: number }> {
  const rows = await db
    .select({ id: staffUsers.id, totpSecret: staffUsers.totpSecret })
    .from(staffUsers)
    .where(isNotNull(staffUsers.totpSecret));
  let resealed = 0;
  let unreadable = 0;
  for (const { id, totpSecret: stored } of rows) {
    if (stored === null || !needsReseal(keyring, stored)) continue;
    let plaintext: string;
    try {
      plaintext = openWith(keyring, stored, CONTEXT);
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      unreadable += 1;
      continue;
    }
    const updated = await db
      .update(staffUsers)
      .set({ totpSecret: sealWith(keyring, plaintext, CONTEXT) })
      .where(and(eq(staffUsers.id, id), eq(staffUsers.totpSecret, stored)))
      .returning({ id: staffUsers.id });
    resealed += updated.length;
  }
  return { resealed, unreadable };
}
