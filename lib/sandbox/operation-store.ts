import { and, count, desc, eq, gte, inArray, isNotNull, lt, lte, type SQL } from "drizzle-orm";
import type { OperationStatus, WireCreateOperationRequest } from "@/lib/financing/contract";
import type { SandboxDb } from "./db/connection";
import { sandboxAccounts, sandboxOperations, type SandboxOperationRow } from "./db/schema";
import { operationNotFound } from "./errors";
import {
  EXPIRABLE,
  EXPIRY_SECONDS,
  MANAGEMENT_FEE_BPS,
  travelEndDate,
  TRIGGERS,
  triggersOf,
  type Caller,
  type SandboxOperation,
  type Trigger,
} from "./operation";

/**
 * The operations' table read and written as `SandboxOperation`s: the queries, and nothing of the
 * rules (`transitions.ts`) or of who may see what (`engine.ts`).
 */

/** The account's row, for its clock and faults: created with its first operation. */
export async function ensureAccount(db: SandboxDb, account: string): Promise<void> {
  await db.insert(sandboxAccounts).values({ id: account }).onConflictDoNothing();
}

/**
 * Creates the operation, or finds the one the agency already created with this externalId.
 * Idempotency is the unique index on (agency, externalId): of concurrent creates, one inserts and
 * the others find its row (NULL externalIds never conflict: no idempotency without one).
 */
export async function insertOperation(
  db: SandboxDb,
  caller: Caller,
  body: WireCreateOperationRequest,
  now: number,
  realNow: number,
): Promise<{ operation: SandboxOperation; created: boolean }> {
  const totalPriceCents = Math.round((body.totalPrice ?? 0) * 100);
  const inserted = await db
    .insert(sandboxOperations)
    .values({
      id: `op_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
      account: caller.account,
      agencyId: caller.agencyId,
      externalId: body.externalId ?? null,
      status: "GENERATED",
      totalPriceCents,
      managementFeeCents: Math.round((totalPriceCents * MANAGEMENT_FEE_BPS) / 10_000),
      currency: "EUR",
      countryCode: body.client.countryCode,
      request: body,
      token: crypto.randomUUID().replaceAll("-", ""),
      triggers: [...triggersOf(body.client.email)],
      createdAt: now,
      updatedAt: now,
      createdRealAt: new Date(realNow),
      history: [{ status: "GENERATED", at: new Date(now).toISOString() }],
      refusedInstallments: [],
      financing: null,
      requestToken: null,
      travelEndDate: travelEndDate(body) ?? null,
    })
    .onConflictDoNothing({ target: [sandboxOperations.agencyId, sandboxOperations.externalId] })
    .returning();
  if (inserted[0]) return { operation: toOperation(inserted[0]), created: true };
  const existing = await findOperation(
    db,
    and(eq(sandboxOperations.agencyId, caller.agencyId), eq(sandboxOperations.externalId, body.externalId!))!,
  );
  if (!existing) throw new Error("sandbox: an idempotent create found neither a new nor an existing operation");
  return { operation: existing, created: false };
}

export async function findOperation(db: SandboxDb, where: SQL): Promise<SandboxOperation | undefined> {
  const [row] = await db.select().from(sandboxOperations).where(where).limit(1);
  return row && toOperation(row);
}

export function byId(id: string): SQL {
  return eq(sandboxOperations.id, id);
}

export function byExternalId(agencyId: number, externalId: string): SQL {
  return and(eq(sandboxOperations.agencyId, agencyId), eq(sandboxOperations.externalId, externalId))!;
}

export function byRequestToken(requestToken: string): SQL {
  return eq(sandboxOperations.requestToken, requestToken);
}

export async function listOperationsOf(
  db: SandboxDb,
  agencyId: number,
  query: { page: number; size: number; status?: OperationStatus; from?: string; to?: string },
): Promise<{ content: SandboxOperation[]; totalElements: number }> {
  const where = and(
    eq(sandboxOperations.agencyId, agencyId),
    query.status === undefined ? undefined : eq(sandboxOperations.status, query.status),
    query.from === undefined ? undefined : gte(sandboxOperations.createdAt, Date.parse(`${query.from}T00:00:00Z`)),
    query.to === undefined ? undefined : lte(sandboxOperations.createdAt, Date.parse(`${query.to}T23:59:59.999Z`)),
  );
  const rows = await db
    .select()
    .from(sandboxOperations)
    .where(where)
    // Newest first; the operation number breaks ties within the same millisecond.
    .orderBy(desc(sandboxOperations.createdAt), desc(sandboxOperations.operationNumber))
    .limit(query.size)
    .offset(query.page * query.size);
  const [total] = await db.select({ n: count() }).from(sandboxOperations).where(where);
  return { content: rows.map((row) => toOperation(row)), totalElements: Number(total?.n ?? 0) };
}

/** The account's operations time has made due at `now`: to expire, and (CONFIRMED) to finish. */
export async function dueOperations(db: SandboxDb, account: string, now: number): Promise<{ expiring: string[]; finishing: string[] }> {
  const expiring = await db
    .select({ id: sandboxOperations.id })
    .from(sandboxOperations)
    .where(
      and(
        eq(sandboxOperations.account, account),
        inArray(sandboxOperations.status, [...EXPIRABLE]),
        lte(sandboxOperations.createdAt, now - EXPIRY_SECONDS * 1000),
      ),
    );
  const confirmed = await db
    .select({ id: sandboxOperations.id, travelEndDate: sandboxOperations.travelEndDate })
    .from(sandboxOperations)
    .where(
      and(eq(sandboxOperations.account, account), eq(sandboxOperations.status, "CONFIRMED"), isNotNull(sandboxOperations.travelEndDate)),
    );
  const finishing = confirmed.filter((op) => now >= Date.parse(`${op.travelEndDate}T23:59:59Z`));
  return { expiring: expiring.map((op) => op.id), finishing: finishing.map((op) => op.id) };
}

/** Deletes operations (and their events) created before `cutoff`; how many. */
export async function purgeCreatedBefore(db: SandboxDb, cutoff: Date): Promise<number> {
  const purged = await db
    .delete(sandboxOperations)
    .where(lt(sandboxOperations.createdRealAt, cutoff))
    .returning({ id: sandboxOperations.id });
  return purged.length;
}

export async function deleteOperationsOf(tx: SandboxDb, account: string): Promise<void> {
  await tx.delete(sandboxOperations).where(eq(sandboxOperations.account, account));
}

/** The operation, its row locked until the transaction ends; 404 when unknown. */
export async function lockOperation(tx: SandboxDb, id: string): Promise<SandboxOperation> {
  const [row] = await tx.select().from(sandboxOperations).where(eq(sandboxOperations.id, id)).for("update");
  if (!row) throw operationNotFound(id);
  return toOperation(row);
}

/** Writes what a rule may change: status, history, refused counts, financing. */
export async function saveOperation(tx: SandboxDb, operation: SandboxOperation): Promise<void> {
  await tx
    .update(sandboxOperations)
    .set({
      status: operation.status,
      updatedAt: operation.updatedAt,
      history: operation.history,
      refusedInstallments: [...operation.refusedInstallments],
      financing: operation.financing ?? null,
      requestToken: operation.financing?.requestToken ?? null,
    })
    .where(eq(sandboxOperations.id, operation.id));
}

function toOperation(row: SandboxOperationRow): SandboxOperation {
  return {
    id: row.id,
    operationNumber: row.operationNumber,
    account: row.account,
    agencyId: row.agencyId,
    externalId: row.externalId,
    status: row.status as OperationStatus,
    totalPriceCents: row.totalPriceCents,
    managementFeeCents: row.managementFeeCents,
    currency: row.currency,
    countryCode: row.countryCode,
    request: row.request,
    token: row.token,
    triggers: new Set(row.triggers.filter((t): t is Trigger => (TRIGGERS as readonly string[]).includes(t))),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    history: row.history,
    refusedInstallments: new Set(row.refusedInstallments),
    ...(row.financing ? { financing: row.financing } : {}),
    travelEndDate: row.travelEndDate ?? undefined,
  };
}
