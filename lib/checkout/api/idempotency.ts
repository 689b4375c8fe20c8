import "server-only";
import { createHash } from "node:crypto";
import { and, eq, isNull, lte } from "drizzle-orm";
import { AppError } from "@/lib/app-error";
// Registers the API's own codes (thrown here) with the error type.
import "./error-codes";
import type { Db } from "@/lib/db";
import { idempotencyKeys } from "@/lib/db/schema";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency-key";

/**
 * `Idempotency-Key` on the checkout sessions API's POSTs: a partner's backend that is not sure its
 * request arrived (a timeout, a dropped connection) sends it again with the same key and gets the
 * first answer back instead of a second effect. Keys are per partner, method and path; kept in the
 * database (`idempotency_keys`) so every instance sees them, for 24 hours from the first request.
 *
 * - The first request with a key claims it (an INSERT … ON CONFLICT DO NOTHING: of two at once,
 *   exactly one inserts), runs, and keeps its answer.
 * - The same key with the same body: that answer again, marked `Idempotent-Replayed: true`.
 * - The same key while the first is still being answered: 409 `idempotency_key_in_use`.
 * - The same key with another body: 422 `idempotency_key_reused`.
 *
 * Which answers are kept: any below 500 but 429. A 5xx or a 429 says nothing about the request
 * itself (a fault of ours, a budget spent): the claim is let go, and the same key runs again.
 */

/** How long a key and its answer are kept, from the first request. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60_000;
/**
 * How long a claim holds a key with no answer yet: past it, the instance answering is taken to
 * have stopped, and a request with the key runs. Longer than any request takes (the partner API's
 * timeouts and retries included).
 */
export const IN_FLIGHT_LOCK_MS = 5 * 60_000;
/** What a 409 `idempotency_key_in_use` tells the client to wait (`Retry-After`). */
const IN_USE_RETRY_AFTER_S = 1;

export interface IdempotentRequest {
  partnerId: string;
  /** Upper case, as the request line has it. */
  method: string;
  /** The request's path, without the query. */
  path: string;
  key: string;
  /** requestFingerprint of the body. */
  requestHash: string;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

export type Claim =
  /** Ours to answer: run the request, then `completeIdempotencyKey` or `releaseIdempotencyKey`. */
  | { kind: "claimed" }
  /** Answered before: give this again. */
  | { kind: "replay"; answer: StoredAnswer }
  /** Being answered now, by this instance or another. */
  | { kind: "in_flight" }
  /** Used with another body. */
  | { kind: "reused" };

/** The key's row: one per partner and scope (method, path and key, hashed to a fixed size). */
function scopeOf(request: IdempotentRequest): string {
  return createHash("sha256").update(`${request.method} ${request.path}\n${request.key}`).digest("hex");
}

function rowOf(request: IdempotentRequest) {
  return and(eq(idempotencyKeys.partnerId, request.partnerId), eq(idempotencyKeys.scope, scopeOf(request)));
}

/**
 * Claims the key for this request, or says what became of it. One statement decides between two
 * requests at once, on PGlite and PostgreSQL alike: the INSERT … ON CONFLICT DO NOTHING that
 * inserts is the one that runs. A key whose row expired, or whose claim ran out with no answer
 * (its instance stopped), is taken over by an UPDATE that only one request can make match.
 */
export async function claimIdempotencyKey(db: Db, request: IdempotentRequest, now = new Date()): Promise<Claim> {
  const lockedUntil = new Date(now.getTime() + IN_FLIGHT_LOCK_MS);
  const fresh = { requestHash: request.requestHash, lockedUntil, responseStatus: null, responseContentType: null, responseBody: null };
  // A row that vanishes between the insert and the read (let go, purged) is claimed again: three tries.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        ...fresh,
        partnerId: request.partnerId,
        scope: scopeOf(request),
        method: request.method,
        path: request.path,
        key: request.key,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ scope: idempotencyKeys.scope });
    if (inserted.length > 0) return { kind: "claimed" };

    const [row] = await db.select().from(idempotencyKeys).where(rowOf(request));
    if (!row) continue;
    if (row.expiresAt <= now) {
      // Expired, not yet purged: a new key as far as anyone can tell.
      const renewed = await db
        .update(idempotencyKeys)
        .set({ ...fresh, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS) })
        .where(and(rowOf(request), lte(idempotencyKeys.expiresAt, now)))
        .returning({ scope: idempotencyKeys.scope });
      if (renewed.length > 0) return { kind: "claimed" };
      continue;
    }
    if (row.requestHash !== request.requestHash) return { kind: "reused" };
    if (row.responseStatus !== null) {
      return { kind: "replay", answer: { status: row.responseStatus, contentType: row.responseContentType, body: row.responseBody ?? "" } };
    }
    if (row.lockedUntil !== null && row.lockedUntil > now) return { kind: "in_flight" };
    // A claim that ran out with no answer: its request never finished.
    const takenOver = await db
      .update(idempotencyKeys)
      .set({ lockedUntil })
      .where(and(rowOf(request), isNull(idempotencyKeys.responseStatus), lte(idempotencyKeys.lockedUntil, now)))
      .returning({ scope: idempotencyKeys.scope });
    if (takenOver.length > 0) return { kind: "claimed" };
  }
  // Three races lost in a row: another request is busy with this key.
  return { kind: "in_flight" };
}

/** Keeps the claimed request's answer for replays. */
export async function completeIdempotencyKey(db: Db, request: IdempotentRequest, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: answer.status, responseContentType: answer.contentType, responseBody: answer.body, lockedUntil: null })
    .where(and(rowOf(request), eq(idempotencyKeys.requestHash, request.requestHash), isNull(idempotencyKeys.responseStatus)));
}

/** Lets the claim go without an answer kept: the same key runs again next time. */
export async function releaseIdempotencyKey(db: Db, request: IdempotentRequest): Promise<void> {
  await db.delete(idempotencyKeys).where(and(rowOf(request), isNull(idempotencyKeys.responseStatus)));
}

/** The refusal of a request whose key is in flight, or was used with another body. */
export function claimRefusal(claim: Extract<Claim, { kind: "in_flight" | "reused" }>): AppError {
  if (claim.kind === "in_flight") {
    return new AppError(
      "idempotency_key_in_use",
      `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being answered: retry after Retry-After seconds to get its answer`,
      {
        retryAfterS: IN_USE_RETRY_AFTER_S,
        fields: [{ field: IDEMPOTENCY_KEY_HEADER, message: "is in use by a request still being answered" }],
      },
    );
  }
  return new AppError(
    "idempotency_key_reused",
    `This ${IDEMPOTENCY_KEY_HEADER} was used with another body in the last 24 hours: use a new key for a new request`,
    { fields: [{ field: IDEMPOTENCY_KEY_HEADER, message: "was used with another body" }] },
  );
}

/** Deletes the keys past their 24 hours; answers how many. Run by the background round. */
export async function purgeExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const deleted = await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now)).returning({ scope: idempotencyKeys.scope });
  return deleted.length;
}
