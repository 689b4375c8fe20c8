import "server-only";
import { getDatabase } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createFinancingClient, type FinancingClient } from "./client";
import { createDatabaseStatusCache } from "./db-status-cache";

export { createFinancingClient, type FinancingClient, type FinancingClientOptions, type StatusRead } from "./client";
export { FinancingApiError, isFinancingApiError, type FinancingErrorKind, type FieldProblem } from "./errors";
export { createMemoryStatusCache, type StatusCache, type StatusCacheEntry } from "./status-cache";
export * from "./types";
export { money, formatMoney, addMoney, centsFromAmount, amountFromCents } from "./money";
export { OPERATION_STATUSES, WEBHOOK_STATUSES, FINANCING_STATUSES, ERROR_CODES, type ErrorCode } from "./contract";

let client: Promise<FinancingClient> | undefined;

/** The client for the deployment's configured credential, with ETags kept in the shared database. */
export function getFinancingClient(): Promise<FinancingClient> {
  client ??= getDatabase().then((database) => {
    const { financing } = getEnv();
    return createFinancingClient({ ...financing, statusCache: createDatabaseStatusCache(database.db) });
  });
  // A failed start (database down) is not kept: the next call tries again.
  client.catch(() => {
    client = undefined;
  });
  return client;
}
