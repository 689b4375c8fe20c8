import "server-only";
import { getStatusSnapshot, saveStatusSnapshot, type Db } from "@/lib/db";
import { operationStatusSchema } from "@/lib/financing/contract";
import type { StatusCache } from "@/lib/financing/status-cache";

/**
 * The status cache in the shared database: every app instance sends the same If-None-Match, and a
 * late answer never overwrites a newer status (the upsert compares the API's updatedAt).
 */
export function createDatabaseStatusCache(db: Db): StatusCache {
  return {
    async get(operationId) {
      const row = await getStatusSnapshot(db, operationId);
      if (!row) return undefined;
      const status = operationStatusSchema.safeParse(row.status);
      // A row written by an older version with a status we no longer know: read afresh.
      if (!status.success) return undefined;
      return { etag: row.etag, status: { operationId, status: status.data, updatedAt: row.updatedAt.toISOString() } };
    },
    async set(operationId, entry) {
      await saveStatusSnapshot(db, {
        operationId,
        status: entry.status.status,
        etag: entry.etag,
        updatedAt: new Date(entry.status.updatedAt),
      });
    },
  };
}
