import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { staffSessions, staffUsers } from "@/lib/db/schema";
import { needsReseal, openWith, SecretOpenError, sealWith } from "@/lib/security/secrets/secret-box";
import { getEnv } from "@/lib/config/env";
import type { Keyring } from "@/lib/config/keyring";

/**
 * Where a staff member's TOTP secret goes in and out of the database: sealed at rest with the
 * partners' secrets' keys (SECRETS_KEYS, AES-256-GCM, lib/security/secrets/secrets.ts), bound to its
 * column and its member's id, so a sealed value copied onto another member's row (or into another
 * column) does not open. The pending secret of an enrolment is bound the same way to the member
 * whose session holds it: the session's own key, its token's hash, changes when the token is renewed.
 *
 * Values sealed before the binding to the row held the column alone. Only the re-seal opens them
 * (resealTotpSecrets, run at every start before the first request, and by `npm run admin --
 * reseal-secrets`), to seal them again bound to their row; reading a member's secret never does, so
 * a column-only value copied onto another row opens nothing there once the server has started. A
 * value stored before sealing existed (plaintext) still opens as it is, and is sealed by the same re-seal.
 */

const COLUMN = "staff_users.totp_secret";
const PENDING_COLUMN = "staff_sessions.totp_pending_secret";

function ringOf(keyring: Keyring | undefined): Keyring {
  return keyring ?? getEnv().SECRETS_KEYS;
}

function rowContext(column: string, userId: string): string {
  return `${column}:${userId}`;
}

/** Opens a value bound to its row; throws SecretOpenError when it is not (a copy, or a column-only value not yet re-sealed). */
function openRowBound(ring: Keyring, column: string, userId: string, stored: string): string {
  return openWith(ring, stored, rowContext(column, userId));
}

/** For the re-seal only: a value bound to its row, else one sealed for its column alone; throws SecretOpenError for neither. */
function openForReseal(ring: Keyring, column: string, userId: string, stored: string): { plaintext: string; rowBound: boolean } {
  try {
    return { plaintext: openWith(ring, stored, rowContext(column, userId)), rowBound: true };
  } catch (error) {
    if (!(error instanceof SecretOpenError)) throw error;
    return { plaintext: openWith(ring, stored, column), rowBound: false };
  }
}

export function storeTotpSecret(userId: string, plaintext: string, keyring?: Keyring): string {
  return sealWith(ringOf(keyring), plaintext, rowContext(COLUMN, userId));
}

/** The member's secret; throws SecretOpenError when no listed key opens it for this member. */
export function readTotpSecret(userId: string, stored: string, keyring?: Keyring): string {
  return openRowBound(ringOf(keyring), COLUMN, userId, stored);
}

export function storePendingTotpSecret(userId: string, plaintext: string, keyring?: Keyring): string {
  return sealWith(ringOf(keyring), plaintext, rowContext(PENDING_COLUMN, userId));
}

/** The pending secret of a session of this member; throws SecretOpenError when it does not open for them. */
export function readPendingTotpSecret(userId: string, stored: string, keyring?: Keyring): string {
  return openRowBound(ringOf(keyring), PENDING_COLUMN, userId, stored);
}

type Resealed = "resealed" | "unreadable" | "kept";

/** Seals one stored value again if it is plaintext, under an older key, or bound to its column alone. */
function resealed(ring: Keyring, column: string, userId: string, stored: string): { outcome: Resealed; sealed?: string } {
  let opened: { plaintext: string; rowBound: boolean };
  try {
    opened = openForReseal(ring, column, userId, stored);
  } catch (error) {
    if (!(error instanceof SecretOpenError)) throw error;
    return { outcome: "unreadable" };
  }
  if (opened.rowBound && !needsReseal(ring, stored)) return { outcome: "kept" };
  return { outcome: "resealed", sealed: sealWith(ring, opened.plaintext, rowContext(column, userId)) };
}

/**
 * Seals again, under the current key (the first of SECRETS_KEYS) and bound to its row, every
 * enrolled TOTP secret and every pending one stored as plaintext, under an older key, or for its
 * column alone, as the partners' secrets are at start: after a rotation the old key can go once the
 * server has started with the new one first. A row is written only if it has not changed meanwhile
 * (another instance starting, its owner enrolling again). An enrolled secret that does not open
 * (no listed key, or sealed for another member) does not stop the start, unlike a partner's: only
 * its owner's second step fails, until an admin resets it; it is counted for the log. A pending one
 * that does not open is left: the enrolment page shows that session a new secret instead.
 */
export async function resealTotpSecrets(db: Db, keyring: Keyring): Promise<{ resealed: number; unreadable: number }> {
  let resealedCount = 0;
  let unreadable = 0;
  const users = await db
    .select({ id: staffUsers.id, stored: staffUsers.totpSecret })
    .from(staffUsers)
    .where(isNotNull(staffUsers.totpSecret));
  for (const { id, stored } of users) {
    if (stored === null) continue;
    const { outcome, sealed } = resealed(keyring, COLUMN, id, stored);
    if (outcome === "unreadable") unreadable += 1;
    if (sealed === undefined) continue;
    const updated = await db
      .update(staffUsers)
      .set({ totpSecret: sealed })
      .where(and(eq(staffUsers.id, id), eq(staffUsers.totpSecret, stored)))
      .returning({ id: staffUsers.id });
    resealedCount += updated.length;
  }
  const sessions = await db
    .select({ tokenHash: staffSessions.tokenHash, userId: staffSessions.userId, stored: staffSessions.totpPendingSecret })
    .from(staffSessions)
    .where(isNotNull(staffSessions.totpPendingSecret));
  for (const { tokenHash, userId, stored } of sessions) {
    if (stored === null) continue;
    const { sealed } = resealed(keyring, PENDING_COLUMN, userId, stored);
    if (sealed === undefined) continue;
    const updated = await db
      .update(staffSessions)
      .set({ totpPendingSecret: sealed })
      .where(and(eq(staffSessions.tokenHash, tokenHash), eq(staffSessions.totpPendingSecret, stored)))
      .returning({ tokenHash: staffSessions.tokenHash });
    resealedCount += updated.length;
  }
  return { resealed: resealedCount, unreadable };
}
