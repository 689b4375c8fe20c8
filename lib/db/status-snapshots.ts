import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "./connection";
import { preparedPerDb } from "./prepared";
import { statusSnapshots, type NewStatusSnapshot, type StatusSnapshot } from "./schema";

const snapshotByOperation = preparedPerDb((db) =>
  db
    .select()
    .from(statusSnapshots)
    .where(eq(statusSnapshots.operationId, sql.placeholder("operationId")))
    .limit(1)
    .prepare("status_snapshot_by_operation"),
);

export async function getStatusSnapshot(db: Db, operationId: string): Promise<StatusSnapshot | undefined> {
  const [snapshot] = await snapshotByOperation(db).execute({ operationId });
  return snapshot;
}

/**
 * Stores what the partner API said about an operation, unless a newer status is already stored.
 * Instances read the API concurrently and their answers can land out of order, so the check has
 * to happen inside the single upsert statement; a read-then-write would let a stale read win.
 * An equal `updatedAt` does overwrite, so a repeated read refreshes `etag` and `checkedAt`.
 *
 * @returns whether the snapshot was stored (false: a newer one was already there).
 */
export async function saveStatusSnapshot(db: Db, snapshot: NewStatusSnapshot): Promise<boolean> {
  const stored = await db
    .insert(statusSnapshots)
    .values(snapshot)
    .onConflictDoUpdate({
      target: statusSnapshots.operationId,
      set: {
        status: sql`excluded.status`,
        etag: sql`excluded.etag`,
        updatedAt: sql`excluded.updated_at`,
        // `excluded` carries the column default (now()) when the caller left checkedAt out.
        checkedAt: sql`excluded.checked_at`,
      },
      setWhere: sql`${statusSnapshots.updatedAt} <= excluded.updated_at`,
    })
    .returning({ operationId: statusSnapshots.operationId });
  return stored.length > 0;
}
