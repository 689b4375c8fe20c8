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
