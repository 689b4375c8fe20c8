import "server-only";
import { createHash, randomInt } from "node:crypto";
import { and, count, eq, isNull, lt, or } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import type { Db } from "@/lib/db";
import { staffRecoveryCodes, staffSessions, staffUsers } from "@/lib/db/schema";
import { qrSvg } from "@/lib/text/qr";
import { loggerFor } from "@/lib/logger";
import { SecretOpenError } from "@/lib/security/secrets/secret-box";
import { readPendingTotpSecret, readTotpSecret, storePendingTotpSecret, storeTotpSecret } from "./totp-secret-store";

/** A transaction of the database (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The second factor of staff sign-in: TOTP (RFC 6238: 6 digits, 30-second steps, SHA-1, as every
 * authenticator app reads them) through otplib, and 10 single-use recovery codes kept only hashed.
 * A code is accepted once: the step of the last accepted code is stored and a code of that step or
 * an earlier one is refused (a replay), in one conditional UPDATE so two requests carrying the same
 * code cannot both pass.
 */

export const TOTP_PERIOD_SECONDS = 30;
/** One step either side, for clocks a little off (the usual tolerance of authenticator apps). */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Travel financing back-office";
// Crockford-like base32 without look-alikes (0/O, 1/I/L): 12 of them are 60 bits, enough that the
// stored SHA-256 cannot be searched back, so no slow hash is needed for these.
const RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export type CodeCheck =
  { ok: true; method: "totp" | "recovery" } | { ok: false; reason: "invalid" | "replayed" | "not_enrolled" | "unreadable" };

/** The plaintext `open` gives, or undefined when the sealed value does not open (another row's, a key no longer listed). */
function openedOrUndefined(open: () => string): string | undefined {
  try {
    return open();
  } catch (error) {
    if (error instanceof SecretOpenError) return undefined;
    throw error;
  }
}

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: ISSUER, label: account, secret });
}

/** The enrolment QR code, drawn on the server as SVG (no script, no image request). */
export function totpQrSvg(uri: string): Promise<string> {
  return qrSvg(uri);
}

/** The step a valid code belongs to, or undefined; `afterStep` refuses that step and earlier ones. */
export async function totpStep(secret: string, code: string, now: Date, afterStep?: number | null): Promise<number | undefined> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null || afterStep === undefined ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : undefined;
}

export function isTotpShaped(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ""));
}

export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
  });
}

/**
 * The secret shown to this session for enrolment: its own pending one (a reload shows the same QR),
 * else a new one kept with the session. Never another session's: whoever else knows the password
 * cannot see, nor later hold, the secret the owner scans. A pending secret that does not open for
 * this session's member (copied from another's session, or under a key no longer listed) is replaced.
 */
export async function enrolmentSecret(db: Db, tokenHash: string): Promise<string> {
  const [session] = await db
    .select({ pending: staffSessions.totpPendingSecret, userId: staffSessions.userId })
    .from(staffSessions)
    .where(eq(staffSessions.tokenHash, tokenHash))
    .limit(1);
  if (!session) return newTotpSecret();
  const { pending, userId } = session;
  const kept = pending ? openedOrUndefined(() => readPendingTotpSecret(userId, pending)) : undefined;
  if (kept !== undefined) return kept;
  const secret = newTotpSecret();
  await db
    .update(staffSessions)
    .set({ totpPendingSecret: storePendingTotpSecret(userId, secret) })
    .where(eq(staffSessions.tokenHash, tokenHash));
  return secret;
}

/**
 * Confirms this session's enrolment with a code from the app: its pending secret becomes the
 * user's, and 10 new recovery codes replace any old ones, in one transaction with `alongside`
 * (the caller's session changes). Returns the codes, to be shown once; undefined for a wrong code
 * or a session with no pending secret.
 */
export async function confirmEnrolment(
  db: Db,
  session: { tokenHash: string; userId: string },
  code: string,
  now = new Date(),
  alongside?: (tx: Tx) => Promise<void>,
): Promise<string[] | undefined> {
  const [row] = await db
    .select({ pending: staffSessions.totpPendingSecret })
    .from(staffSessions)
    .where(and(eq(staffSessions.tokenHash, session.tokenHash), eq(staffSessions.userId, session.userId)))
    .limit(1);
  const pending = row?.pending;
  if (!pending) return undefined;
  const secret = openedOrUndefined(() => readPendingTotpSecret(session.userId, pending));
  if (secret === undefined) return undefined;
  const step = await totpStep(secret, code, now);
  if (step === undefined) return undefined;
  const codes = newRecoveryCodes();
  const { userId } = session;
  await db.transaction(async (tx) => {
    await tx
      .update(staffUsers)
      .set({ totpSecret: storeTotpSecret(userId, secret), totpEnabledAt: now, totpLastStep: step })
      .where(eq(staffUsers.id, userId));
    await tx.update(staffSessions).set({ totpPendingSecret: null }).where(eq(staffSessions.tokenHash, session.tokenHash));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(staffRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c), createdAt: now })));
    await alongside?.(tx);
  });
  return codes;
}

/** Enrols directly with a known secret and recovery codes: the sandbox's published demo accounts. */
export async function enrolWithSecret(db: Db, userId: string, secret: string, recoveryCodes: readonly string[], now = new Date()) {
  await db.transaction(async (tx) => {
    await tx
      .update(staffUsers)
      .set({ totpSecret: storeTotpSecret(userId, secret), totpEnabledAt: now, totpLastStep: null })
      .where(eq(staffUsers.id, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    if (recoveryCodes.length > 0) {
      await tx.insert(staffRecoveryCodes).values(recoveryCodes.map((c) => ({ userId, codeHash: hashRecoveryCode(c), createdAt: now })));
    }
  });
}

/** Turns the second factor off (the user is then sent to enrol again before any other page). */
export async function disableTwoFactor(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null }).where(eq(staffUsers.id, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  });
}

/**
 * Checks a second-factor code: a TOTP code (refused if its step was already used) or an unused
 * recovery code (used up by this call). Both "use" steps are single conditional statements. A
 * stored secret that does not open for this member (copied from another member's row, or sealed
 * under a key no longer listed) gives "unreadable": no code passes, recovery codes still do.
 */
export async function checkSecondFactor(db: Db, userId: string, code: string, now = new Date()): Promise<CodeCheck> {
  const [user] = await db.select().from(staffUsers).where(eq(staffUsers.id, userId)).limit(1);
  if (!user?.totpSecret || !user.totpEnabledAt) return { ok: false, reason: "not_enrolled" };
  if (isTotpShaped(code)) {
    const stored = user.totpSecret;
    const secret = openedOrUndefined(() => readTotpSecret(userId, stored));
    if (secret === undefined) {
      loggerFor("backoffice").warn({ userId }, "backoffice: a second-factor secret does not open for its member; an admin can reset it");
      return { ok: false, reason: "unreadable" };
    }
    const step = await totpStep(secret, code, now);
    if (step === undefined) return { ok: false, reason: "invalid" };
    const used = await db
      .update(staffUsers)
      .set({ totpLastStep: step })
      .where(and(eq(staffUsers.id, userId), sqlStepBefore(step)))
      .returning({ id: staffUsers.id });
    return used.length === 1 ? { ok: true, method: "totp" } : { ok: false, reason: "replayed" };
  }
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 12) return { ok: false, reason: "invalid" };
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        eq(staffRecoveryCodes.codeHash, hashRecoveryCode(normalized)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return used.length === 1 ? { ok: true, method: "recovery" } : { ok: false, reason: "invalid" };
}

/** When the member turned two-step verification on; null while it is off. */
export async function twoFactorEnabledAt(db: Db, userId: string): Promise<Date | null> {
  const [user] = await db.select({ enabledAt: staffUsers.totpEnabledAt }).from(staffUsers).where(eq(staffUsers.id, userId)).limit(1);
  return user?.enabledAt ?? null;
}

export async function unusedRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** The stored step is older than this one (or none yet): the condition that makes a code single-use. */
function sqlStepBefore(step: number) {
  return or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step));
}
