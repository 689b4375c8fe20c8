import { LRUCache } from "lru-cache";
import type { OperationStatusInfo } from "./types";

/** What a conditional status read needs from the previous one. */
export interface StatusCacheEntry {
  etag: string;
  status: OperationStatusInfo;
}

/**
 * Where the client keeps the ETags of status reads. In memory by default; the app plugs in the
 * database (`status_snapshots`) so that every instance revalidates against the same ETag.
 */
export interface StatusCache {
  get(operationId: string): Promise<StatusCacheEntry | undefined>;
  set(operationId: string, entry: StatusCacheEntry): Promise<void>;
}

/** A bounded in-memory cache: the least recently used entry goes when it is full. */
export function createMemoryStatusCache(maxEntries = 1_000): StatusCache {
  const entries = new LRUCache<string, StatusCacheEntry>({ max: maxEntries });
  return {
    async get(operationId) {
      return entries.get(operationId);
    },
    async set(operationId, entry) {
      entries.set(operationId, entry);
    },
  };
}

/**
 * This process's memory in front of the shared cache: a status page view reads the ETag without a
 * database query once this instance has seen the operation. Safe however stale the memory is: an
 * ETag the API no longer has only gets a full answer (200) instead of a 304, and that answer is
 * kept in both. A 304 means the API's representation is still the one that ETag names.
 */
export function createLayeredStatusCache(near: StatusCache, far: StatusCache): StatusCache {
  return {
    async get(operationId) {
      const known = await near.get(operationId);
      if (known) return known;
      const shared = await far.get(operationId);
      if (shared) await near.set(operationId, shared);
      return shared;
    },
    async set(operationId, entry) {
      await Promise.all([near.set(operationId, entry), far.set(operationId, entry)]);
    },
  };
}
