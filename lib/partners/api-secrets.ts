// Over 400 lines: the lifecycle of a partner's API secrets (create, list, rotate, revoke, scopes, the cap across rotations), one set of rules over one table.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partnerApiSecrets, partners, type PartnerApiSecretRow, type PartnerRow } from "@/lib/db/schema";
import { normalizedScopes, type SecretScope } from "@/lib/vocabulary/api-scopes";

/**
 * A partner's secrets for the checkout sessions API: created (shown once), listed, rotated (the old
 * one keeps working for ROTATION_OVERLAP_MS) and revoked (at once). Only their SHA-256 is stored:
 * a secret is random and only ever compared, so nothing needs to open it again.
 *
 * Every request is a database lookup on the unique index of the hash, joined with the partner: no
 * process keeps a secret → partner answer, so a revocation, an expiry or a disabled partner holds on
 * every instance from the next request.
 *
 * Each secret carries scopes (lib/vocabulary/api-scopes.ts), chosen at its creation and kept by its
 * rotations. Who may call these (an operator, a partner's administrator), which scopes they may give
 * (the `mayHold` each creation and rotation is handed) and the audit of it are the callers'.
 */

/** A secret's prefix says which partner API it goes with: production (`fk_live_` keys) or the sandbox. */
export const LIVE_SECRET_PREFIX = "cs_live_";
export const TEST_SECRET_PREFIX = "cs_test_";
/**
 * Random bytes of a secret: 384 bits, 64 characters. Long enough too that `cs_live_…` never has the
 * shape of a checkout session id (`cs_` and at most 64 characters, lib/http/checkout-session-id.ts),
 * so a secret pasted where an id goes is never taken, or logged, as one.
 */
const SECRET_BYTES = 48;
/** The characters kept to recognise a secret in lists: its kind and four random characters. */
const SHOWN_PREFIX_LENGTH = LIVE_SECRET_PREFIX.length + 4;
/** A rotated secret keeps working this long, while the partner's backend moves to the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;
/** `last_used_at` is written at most this often per secret: a request is not a write. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * Secrets that work at once per partner, active or in a rotation's overlap: a rotation needs a free
 * place as a creation does, so rotating never lifts the cap.
 */
export const MAX_LIVE_SECRETS = 10;
export const SECRET_NAME_MAX_LENGTH = 60;
/** Bearer values outside these lengths are not looked up. */
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 200;

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type SecretEnvironment = "sandbox" | "production";
export type SecretState = "active" | "rotating" | "expired" | "revoked";

export interface SecretAuthor {
  kind: "staff" | "operator" | "system";
  id: string | null;
  name: string | null;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new secret, `cs_live_…` with the production partner API, `cs_test_…` with the sandbox. */
export function newSecret(environment: SecretEnvironment): string {
  const prefix = environment === "production" ? LIVE_SECRET_PREFIX : TEST_SECRET_PREFIX;
  return `${prefix}${randomBytes(SECRET_BYTES).toString("base64url")}`;
}

/** The part of a secret kept in clear: enough to recognise it, far too little to guess it. */
export function shownPrefix(secret: string): string {
  return secret.slice(0, SHOWN_PREFIX_LENGTH);
}

export function secretState(secret: Pick<PartnerApiSecretRow, "revokedAt" | "expiresAt">, now = new Date()): SecretState {
  if (secret.revokedAt) return "revoked";
  if (secret.expiresAt) return secret.expiresAt > now ? "rotating" : "expired";
  return "active";
}

/** Neither revoked nor expired: the SQL twin of a state of "active" or "rotating". */
function works(now: Date) {
  return and(isNull(partnerApiSecrets.revokedAt), or(isNull(partnerApiSecrets.expiresAt), gt(partnerApiSecrets.expiresAt, now)));
}

/**
 * Who calls the checkout sessions API: the partner, and which of its secrets, with its scopes and who
 * created it (the audit log names both).
 */
export interface ApiCaller {
  partner: PartnerRow;
  secret: { id: string; name: string; scopes: SecretScope[]; createdBy: Pick<SecretAuthor, "kind" | "name"> };
}

/**
 * The partner whose working secret this is: unknown, revoked and expired secrets, and the secrets of
 * a disabled partner, are all the same "no". Records when the secret was last used (at most once a
 * LAST_USED_RESOLUTION_MS).
 */
export async function partnerBySecret(db: Db, secret: string, now = new Date()): Promise<PartnerRow | undefined> {
  return (await apiCallerBySecret(db, secret, now))?.partner;
}

/** The partner and the secret itself (its id and name), as partnerBySecret finds them. */
export async function apiCallerBySecret(db: Db, secret: string, now = new Date()): Promise<ApiCaller | undefined> {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) return undefined;
  const [row] = await db
    .select({
      partner: partners,
      secretId: partnerApiSecrets.id,
      secretName: partnerApiSecrets.name,
      scopes: partnerApiSecrets.scopes,
      createdByKind: partnerApiSecrets.createdByKind,
      createdByName: partnerApiSecrets.createdByName,
      lastUsedAt: partnerApiSecrets.lastUsedAt,
    })
    .from(partnerApiSecrets)
    .innerJoin(partners, eq(partners.id, partnerApiSecrets.partnerId))
    .where(and(eq(partnerApiSecrets.secretHash, hashSecret(secret)), works(now), isNull(partners.disabledAt)))
    .limit(1);
  if (!row) return undefined;
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    // Conditional: instances racing on the same secret write it once.
    await db
      .update(partnerApiSecrets)
      .set({ lastUsedAt: now })
      .where(
        and(eq(partnerApiSecrets.id, row.secretId), or(isNull(partnerApiSecrets.lastUsedAt), lt(partnerApiSecrets.lastUsedAt, stale))),
      );
  }
  return {
    partner: row.partner,
    secret: {
      id: row.secretId,
      name: row.secretName,
      scopes: normalizedScopes(row.scopes),
      createdBy: { kind: row.createdByKind, name: row.createdByName },
    },
  };
}

/** What a list shows of a secret: never its hash. */
export interface ApiSecretView {
  id: string;
  name: string;
  prefix: string;
  /** What it may do: some scopes, or `all` (a secret from before scopes). */
  scopes: SecretScope[];
  state: SecretState;
  createdAt: Date;
  createdByName: string | null;
  createdByKind: SecretAuthor["kind"];
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

function view(row: PartnerApiSecretRow, now: Date): ApiSecretView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: normalizedScopes(row.scopes),
    state: secretState(row, now),
    createdAt: row.createdAt,
    createdByName: row.createdByName,
    createdByKind: row.createdByKind,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}

/** The partner's secrets, working ones first, newest first. */
export async function listApiSecrets(db: Db, partnerId: string, now = new Date()): Promise<ApiSecretView[]> {
  const rows = await db
    .select()
    .from(partnerApiSecrets)
    .where(eq(partnerApiSecrets.partnerId, partnerId))
    .orderBy(desc(partnerApiSecrets.createdAt), desc(partnerApiSecrets.id));
  const views = rows.map((row) => view(row, now));
  const working = (state: SecretState) => state === "active" || state === "rotating";
  return [...views.filter((v) => working(v.state)), ...views.filter((v) => !working(v.state))];
}

export type CreateSecretResult =
  | { ok: true; secret: string; view: ApiSecretView }
  | { ok: false; reason: "not_found" | "too_many" | "invalid_name" | "invalid_scopes" | "scope_not_allowed" };

/** Whoever creates or rotates a secret may give it these scopes (their permissions decide; the callers'). */
export type MayHold = (scopes: readonly SecretScope[]) => boolean;

/** The name as typed, trimmed; undefined when it cannot be a name. */
export function secretName(raw: string): string | undefined {
  const name = raw.trim();
  if (name.length === 0 || name.length > SECRET_NAME_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) return undefined;
  return name;
}

function newId(): string {
  return `sec_${randomBytes(12).toString("base64url")}`;
}

async function insertSecret(
  db: Db | Tx,
  partnerId: string,
  name: string,
  scopes: SecretScope[],
  author: SecretAuthor,
  environment: SecretEnvironment,
  now: Date,
): Promise<{ secret: string; row: PartnerApiSecretRow }> {
  const secret = newSecret(environment);
  const [row] = await db
    .insert(partnerApiSecrets)
    .values({
      id: newId(),
      partnerId,
      name,
      prefix: shownPrefix(secret),
      secretHash: hashSecret(secret),
      scopes,
      createdAt: now,
      createdByKind: author.kind,
      createdById: author.id,
      createdByName: author.name,
    })
    .returning();
  return { secret, row: row! };
}

/**
 * Whether the partner has room for one more working secret, asked in `tx` with the partner's row
 * locked: two creations or rotations at once are counted one after the other, never both under the
 * cap. False when there is no such partner.
 */
async function roomForOneMore(tx: Tx, partnerId: string, now: Date): Promise<boolean> {
  await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for("update");
  return (await liveSecretCount(tx, partnerId, now)) < MAX_LIVE_SECRETS;
}

async function liveSecretCount(db: Db | Tx, partnerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(partnerApiSecrets)
    .where(and(eq(partnerApiSecrets.partnerId, partnerId), works(now)));
  return row?.n ?? 0;
}

async function partnerExists(db: Db, partnerId: string): Promise<boolean> {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).limit(1);
  return row !== undefined;
}

/**
 * A new secret for the partner, with `rawScopes` (at least one; `all` is never given anew): the
 * plaintext is returned here, once, and stored nowhere.
 */
export async function createApiSecret(
  db: Db,
  partnerId: string,
  rawName: string,
  rawScopes: readonly string[],
  author: SecretAuthor,
  environment: SecretEnvironment,
  mayHold: MayHold,
  now = new Date(),
): Promise<CreateSecretResult> {
  const name = secretName(rawName);
  if (!name) return { ok: false, reason: "invalid_name" };
  const scopes = newSecretScopes(rawScopes);
  if (!scopes) return { ok: false, reason: "invalid_scopes" };
  if (!mayHold(scopes)) return { ok: false, reason: "scope_not_allowed" };
  if (!(await partnerExists(db, partnerId))) return { ok: false, reason: "not_found" };
  return db.transaction(async (tx) => {
    if (!(await roomForOneMore(tx, partnerId, now))) return { ok: false as const, reason: "too_many" as const };
    const { secret, row } = await insertSecret(tx, partnerId, name, scopes, author, environment, now);
    return { ok: true as const, secret, view: view(row, now) };
  });
}

/** The scopes a new secret may be given: each a scope of the API (not `all`), at least one; else undefined. */
export function newSecretScopes(raw: readonly string[]): SecretScope[] | undefined {
  const scopes = normalizedScopes(raw);
  if (scopes.length === 0 || scopes.includes("all") || scopes.length !== new Set(raw).size) return undefined;
  return scopes;
}

export type RotateSecretResult =
  | { ok: true; secret: string; view: ApiSecretView; previousValidUntil: Date }
  | { ok: false; reason: "not_found" | "not_active" | "too_many" | "scope_not_allowed" };

/**
 * A new secret under the same name with the same scopes, and the old one working until
 * ROTATION_OVERLAP_MS from now. Only an active secret rotates (one already in an overlap is on its
 * way out: revoke it, or rotate its successor), only by someone who may give its scopes
 * (`mayHold`), and only with room under MAX_LIVE_SECRETS for the new one (the old one still works).
 * `partnerId` scopes the lookup: another partner's secret is "not found".
 */
export async function rotateApiSecret(
  db: Db,
  partnerId: string,
  secretId: string,
  author: SecretAuthor,
  environment: SecretEnvironment,
  mayHold: MayHold,
  now = new Date(),
): Promise<RotateSecretResult> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ scopes: partnerApiSecrets.scopes })
      .from(partnerApiSecrets)
      .where(and(eq(partnerApiSecrets.id, secretId), eq(partnerApiSecrets.partnerId, partnerId)))
      .limit(1);
    if (!current) return { ok: false as const, reason: "not_found" as const };
    const scopes = normalizedScopes(current.scopes);
    if (!mayHold(scopes)) return { ok: false as const, reason: "scope_not_allowed" as const };
    if (!(await roomForOneMore(tx, partnerId, now))) {
      // Full, but a secret that cannot rotate anyway says so first.
      const [still] = await tx
        .select({ id: partnerApiSecrets.id })
        .from(partnerApiSecrets)
        .where(and(eq(partnerApiSecrets.id, secretId), isNull(partnerApiSecrets.revokedAt), isNull(partnerApiSecrets.expiresAt)));
      return { ok: false as const, reason: still ? ("too_many" as const) : ("not_active" as const) };
    }
    const previousValidUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    // Conditional on its being active: two rotations at once do not both win.
    const [old] = await tx
      .update(partnerApiSecrets)
      .set({ expiresAt: previousValidUntil })
      .where(
        and(
          eq(partnerApiSecrets.id, secretId),
          eq(partnerApiSecrets.partnerId, partnerId),
          isNull(partnerApiSecrets.revokedAt),
          isNull(partnerApiSecrets.expiresAt),
        ),
      )
      .returning();
    if (!old) return { ok: false as const, reason: "not_active" as const };
    const { secret, row } = await insertSecret(tx, partnerId, old.name, scopes, author, environment, now);
    return { ok: true as const, secret, view: view(row, now), previousValidUntil };
  });
}

export type RevokeSecretResult = { ok: true; view: ApiSecretView } | { ok: false; reason: "not_found" | "already_revoked" };

/** Ends a secret at once, wherever it is in its life. Another partner's secret is "not found". */
export async function revokeApiSecret(db: Db, partnerId: string, secretId: string, now = new Date()): Promise<RevokeSecretResult> {
  const [row] = await db
    .update(partnerApiSecrets)
    .set({ revokedAt: now })
    .where(and(eq(partnerApiSecrets.id, secretId), eq(partnerApiSecrets.partnerId, partnerId), isNull(partnerApiSecrets.revokedAt)))
    .returning();
  if (row) return { ok: true, view: view(row, now) };
  const [exists] = await db
    .select({ id: partnerApiSecrets.id })
    .from(partnerApiSecrets)
    .where(and(eq(partnerApiSecrets.id, secretId), eq(partnerApiSecrets.partnerId, partnerId)))
    .limit(1);
  return { ok: false, reason: exists ? "already_revoked" : "not_found" };
}

/** One secret of the partner (for an audit line naming it), or undefined. */
export async function apiSecretById(db: Db, partnerId: string, secretId: string, now = new Date()): Promise<ApiSecretView | undefined> {
  const [row] = await db
    .select()
    .from(partnerApiSecrets)
    .where(and(eq(partnerApiSecrets.id, secretId), eq(partnerApiSecrets.partnerId, partnerId)))
    .limit(1);
  return row ? view(row, now) : undefined;
}

/**
 * A secret known in advance, kept working under a fixed id: the demo partners' published sandbox
 * secrets (lib/demo/seed.ts). Written again at every start, so a revocation made on the demo ends
 * at the next restart, as the demo's other published settings do. They hold `all`: the demo and its
 * guides use every call with them.
 */
export async function seedKnownSecret(db: Db, partnerId: string, id: string, name: string, secret: string): Promise<void> {
  const values = {
    id,
    partnerId,
    name,
    prefix: shownPrefix(secret),
    secretHash: hashSecret(secret),
    scopes: ["all" as const],
    createdByKind: "system" as const,
    createdById: null,
    createdByName: null,
  };
  await db
    .insert(partnerApiSecrets)
    .values(values)
    .onConflictDoUpdate({
      target: partnerApiSecrets.id,
      set: {
        partnerId,
        name,
        prefix: values.prefix,
        secretHash: values.secretHash,
        scopes: values.scopes,
        revokedAt: null,
        expiresAt: null,
      },
    });
}
