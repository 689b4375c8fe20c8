import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { preparedPerDb } from "@/lib/db/prepared";
import { checkoutSessions, customerData, type CheckoutSessionRow } from "@/lib/db/schema";
import type { Keyring } from "@/lib/config/keyring";
import { getEnv } from "@/lib/config/env";
import { loggerFor } from "@/lib/logger";
import { SEALED_PREFIX, SecretOpenError } from "@/lib/security/secrets/secret-box";
import type { CustomerDraft } from "./customer";
import { customerHashes, openCustomerDraft, sealCustomerDraft, searchHashes } from "./customer-sealing";
import type { Tx } from "./outbox";

/**
 * The customer's data of a session, in the database: the partner's prefill, then what the customer
 * submitted, bound to the browser that submitted it, and the corrections it made since. The one
 * module that reads or writes `customer_data.data`: sealed on the way in, opened on the way out
 * (customer-sealing.ts), with the keyed hashes it is searched by written beside it.
 *
 * What a reader gets is one of three: the data; "erased" (eraseCustomerData emptied the row); or
 * "unavailable" (no key of SECRETS_KEYS opens it, or it was sealed for another row): logged with
 * the session id only, and shown as such, never a crash.
 */

const log = loggerFor("checkout");

/** The data of a session as its readers see it. */
export type CustomerDataView =
  { status: "present"; draft: CustomerDraft } | { status: "erased"; erasedAt: Date } | { status: "unavailable" };

interface SealedRow {
  sessionId: string;
  data: string | null;
  erasedAt: Date | null;
}

function viewOf(row: SealedRow, keyring?: Keyring): CustomerDataView {
  if (row.erasedAt !== null || row.data === null) return { status: "erased", erasedAt: row.erasedAt ?? new Date(0) };
  try {
    return { status: "present", draft: openCustomerDraft(row.sessionId, row.data, keyring) };
  } catch (error) {
    if (!(error instanceof SecretOpenError) && !(error instanceof SyntaxError)) throw error;
    // The session id only: never the data, never a key.
    log.warn({ sessionId: row.sessionId, variables: ["SECRETS_KEYS"] }, "customer data that no listed key opens: shown as unavailable");
    return { status: "unavailable" };
  }
}

/** The stored columns of a draft: sealed for its session, with its search hashes. */
function sealedValues(sessionId: string, draft: CustomerDraft, keyring?: Keyring) {
  return { data: sealCustomerDraft(sessionId, draft, keyring), ...customerHashes(draft, keyring) };
}

const draftBySession = preparedPerDb((db) =>
  db
    .select()
    .from(customerData)
    .where(eq(customerData.sessionId, sql.placeholder("sessionId")))
    .limit(1)
    .prepare("draft_by_session"),
);

export type StoredCustomerData = CustomerDataView & {
  submitted: boolean;
  /** The hash of the submitting browser's token (lib/checkout/session/customer-editor.ts); null before a submit. */
  editorTokenHash: string | null;
  corrections: number;
};

/** A session's customer data with its submit state; undefined when it has none. */
export async function getCustomerDraft(db: Db, sessionId: string, keyring?: Keyring): Promise<StoredCustomerData | undefined> {
  const [row] = await draftBySession(db).execute({ sessionId });
  return row && { ...viewOf(row, keyring), submitted: row.submitted, editorTokenHash: row.editorTokenHash, corrections: row.corrections };
}

/** The customer data of these sessions, by session id; a session without any is not in the map. */
export async function readCustomerData(db: Db, sessionIds: readonly string[], keyring?: Keyring): Promise<Map<string, CustomerDataView>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ sessionId: customerData.sessionId, data: customerData.data, erasedAt: customerData.erasedAt })
    .from(customerData)
    .where(inArray(customerData.sessionId, [...new Set(sessionIds)]));
  return new Map(rows.map((row) => [row.sessionId, viewOf(row, keyring)]));
}

/** A session with when its customer data was erased (null: not erased), in one read: what the API's GET answers. */
export async function sessionWithErasure(
  db: Db,
  sessionId: string,
): Promise<{ session: CheckoutSessionRow; erasedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ session: checkoutSessions, erasedAt: customerData.erasedAt })
    .from(checkoutSessions)
    .leftJoin(customerData, eq(customerData.sessionId, checkoutSessions.id))
    .where(eq(checkoutSessions.id, sessionId))
    .limit(1);
  return row;
}

/** When these sessions' customer data was erased, by session id; a session not erased is not in the map. */
export async function customerDataErasedAt(db: Db, sessionIds: readonly string[]): Promise<Map<string, Date>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ sessionId: customerData.sessionId, erasedAt: customerData.erasedAt })
    .from(customerData)
    .where(and(inArray(customerData.sessionId, [...new Set(sessionIds)]), isNotNull(customerData.erasedAt)));
  return new Map(rows.map((row) => [row.sessionId, row.erasedAt!]));
}

/** The partner's prefill of a session being opened, in the transaction that opens it. */
export async function storePrefill(tx: Tx, sessionId: string, draft: CustomerDraft): Promise<void> {
  await tx.insert(customerData).values({ sessionId, ...sealedValues(sessionId, draft), submitted: false });
}

/**
 * Stores the submitted data, bound to the browser holding the token whose hash is given: only while
 * nothing was submitted yet (the partner's prefill is replaced), or by that same browser, and never
 * over erased data. False when another browser's submit is stored (the caller refuses this one).
 */
export async function saveCustomerData(db: Db, sessionId: string, data: CustomerDraft, editorTokenHash: string): Promise<boolean> {
  const sealed = sealedValues(sessionId, data);
  const rows = await db
    .insert(customerData)
    .values({ sessionId, ...sealed, submitted: true, editorTokenHash })
    .onConflictDoUpdate({
      target: customerData.sessionId,
      set: { ...sealed, submitted: true, editorTokenHash, updatedAt: new Date() },
      setWhere: and(
        isNull(customerData.erasedAt),
        or(eq(customerData.submitted, false), eq(customerData.editorTokenHash, editorTokenHash)),
      ),
    })
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}

/**
 * Counts one correction for the browser that submitted the data, if the session has corrections
 * left: one statement, so concurrent posts cannot all pass the cap. False: none left (or not that browser).
 */
export async function reserveCorrection(db: Db, sessionId: string, editorTokenHash: string, max: number): Promise<boolean> {
  const rows = await db
    .update(customerData)
    .set({ corrections: sql`${customerData.corrections} + 1` })
    .where(
      and(
        eq(customerData.sessionId, sessionId),
        eq(customerData.editorTokenHash, editorTokenHash),
        lt(customerData.corrections, max),
        isNull(customerData.erasedAt),
      ),
    )
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}

/**
 * Erases a session's customer data, in one statement: the sealed data and both hashes become null,
 * `erased_at` is set. A row erased before is left as it is (its `erased_at` the first time's):
 * "already_erased", even at the same instant. The row stays, so the readers
 * can say "erased". "none": the session has no customer data.
 */
export async function eraseCustomerData(db: Db, sessionId: string, now: Date): Promise<"erased" | "already_erased" | "none"> {
  const [row] = await db
    .update(customerData)
    .set({ data: null, documentHash: null, emailHash: null, erasedAt: now, updatedAt: now })
    .where(and(eq(customerData.sessionId, sessionId), isNull(customerData.erasedAt)))
    .returning({ sessionId: customerData.sessionId });
  if (row) return "erased";
  // Not erased now: erased before (a repeat, even at the same instant), or no row at all.
  const [existing] = await db.select({ sessionId: customerData.sessionId }).from(customerData).where(eq(customerData.sessionId, sessionId));
  return existing ? "already_erased" : "none";
}

/**
 * Erases a session's customer data as eraseCustomerData does, and marks a session that never had
 * any as erased too (a row with no data and `erased_at` set), so its readers say "erased" either way:
 * one statement, whose row comes back only when it inserted or erased one.
 */
export async function eraseOrMarkCustomerData(db: Db, sessionId: string, now: Date): Promise<"erased" | "already_erased"> {
  const erased = { data: null, documentHash: null, emailHash: null, erasedAt: now, updatedAt: now };
  const rows = await db
    .insert(customerData)
    .values({ sessionId, ...erased, submitted: false })
    .onConflictDoUpdate({ target: customerData.sessionId, set: erased, setWhere: isNull(customerData.erasedAt) })
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0 ? "erased" : "already_erased";
}

/**
 * The sessions (and their partners) whose customer data has this document number and/or e-mail
 * address (both given: both must match), however written (spaces, dashes, case): found by the
 * keyed hashes only, never by opening the data. Erased data is never found. Every partner's
 * sessions: a caller showing them to a partner's staff keeps that partner's own.
 */
export async function findSessionsByCustomer(
  db: Db,
  customer: { documentNumber?: string; email?: string },
  keyring?: Keyring,
): Promise<{ sessionId: string; partnerId: string }[]> {
  const conditions: SQL[] = [];
  for (const [kind, value, column] of [
    ["document", customer.documentNumber, customerData.documentHash],
    ["email", customer.email, customerData.emailHash],
  ] as const) {
    if (value === undefined) continue;
    const hashes = searchHashes(kind, value, keyring);
    if (hashes.length === 0) return [];
    conditions.push(inArray(column, hashes));
  }
  if (conditions.length === 0) return [];
  return db
    .select({ sessionId: customerData.sessionId, partnerId: checkoutSessions.partnerId })
    .from(customerData)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, customerData.sessionId))
    .where(and(isNull(customerData.erasedAt), ...conditions))
    .orderBy(asc(customerData.sessionId));
}

const RESEAL_BATCH = 200;

/**
 * Seals again, under the current key (the first of SECRETS_KEYS), every customer's data stored in
 * plaintext (rows from before sealing) or under an older key, and writes its search hashes under
 * that key too (customer-sealing.ts says why). A row is written only if it has not changed
 * meanwhile. A row no listed key opens is counted and logged by its session id, and left as it is:
 * its readers show it as unavailable.
 */
export async function resealCustomerData(db: Db, keyring?: Keyring): Promise<{ resealed: number; unreadable: number }> {
  const ring = keyring ?? getEnv().SECRETS_KEYS;
  const current = `${SEALED_PREFIX}${ring[0].id}:`;
  let resealed = 0;
  let unreadable = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .select({ sessionId: customerData.sessionId, data: customerData.data, erasedAt: customerData.erasedAt })
      .from(customerData)
      .where(
        and(
          isNotNull(customerData.data),
          gt(customerData.sessionId, after),
          ne(sql`left(${customerData.data}, ${current.length})`, current),
        ),
      )
      .orderBy(asc(customerData.sessionId))
      .limit(RESEAL_BATCH);
    for (const row of rows) {
      // The query keeps only rows not under the current key.
      if (row.data === null) continue;
      const view = viewOf(row, ring);
      if (view.status !== "present") {
        unreadable += 1;
        continue;
      }
      const updated = await db
        .update(customerData)
        .set(sealedValues(row.sessionId, view.draft, ring))
        .where(and(eq(customerData.sessionId, row.sessionId), eq(customerData.data, row.data)))
        .returning({ sessionId: customerData.sessionId });
      resealed += updated.length;
    }
    if (rows.length < RESEAL_BATCH) break;
    after = rows[rows.length - 1]!.sessionId;
  }
  return { resealed, unreadable };
}
