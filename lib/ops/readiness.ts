import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { defaultMigrationsDir, getDatabase } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createFinancingClient, type FinancingClient } from "@/lib/financing/client";
import { logError, loggerFor } from "@/lib/logger";
import { observePartnerCall } from "./metrics";
import { createSharedProbe } from "./shared-probe";
import { isDraining } from "./lifecycle";

const log = loggerFor("ready");

/** How long the partner API may take to answer the readiness probe's health call. */
export const READY_API_TIMEOUT_MS = 2_000;

export type CheckResult = "ok" | "failed" | "timeout" | "pending" | "draining";

export interface Readiness {
  ready: boolean;
  checks: { instance: CheckResult; database: CheckResult; migrations: CheckResult; partnerApi: CheckResult };
}

/** The newest migration this build ships (drizzle's journal), read once. */
let latestMigration: number | undefined;
function latestMigrationMillis(): number {
  if (latestMigration === undefined) {
    const journal = JSON.parse(readFileSync(path.join(defaultMigrationsDir(), "meta", "_journal.json"), "utf8")) as {
      entries: { when: number }[];
    };
    latestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return latestMigration;
}

/**
 * How long one answer of the partner API's health call stands for this instance: `/api/ready` is
 * public (load balancers cannot authenticate), and without this each request would be one call on
 * the deployment's key, whose rate limit every partner's checkouts share.
 */
export const READY_API_CACHE_MS = 5_000;

let apiClient: FinancingClient | undefined;

const partnerApiProbe = createSharedProbe<Extract<CheckResult, "ok" | "failed" | "timeout">>(READY_API_CACHE_MS, async () => {
  // Observed like every partner API call (the metrics count it).
  apiClient ??= createFinancingClient({
    ...getEnv().financing,
    timeoutMs: READY_API_TIMEOUT_MS,
    maxAttempts: 1,
    observe: observePartnerCall,
  });
  try {
    const answer = await withTimeout(apiClient.health(), READY_API_TIMEOUT_MS + 250);
    return answer === "timeout" ? "timeout" : "ok";
  } catch (error) {
    const timedOut = error instanceof Error && "kind" in error && error.kind === "timeout";
    log.warn({ partnerApi: timedOut ? "timeout" : "failed" }, "ready: the partner API check failed");
    return timedOut ? "timeout" : "failed";
  }
});

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/**
 * Readiness, distinct from liveness (`/api/health`): this instance takes traffic only when it is not
 * draining, the database answers, every migration this build ships is applied (drizzle records
 * each by its folder time), and the partner API answers its health call within 2 s with the
 * deployment's key (asked at most once per {@link READY_API_CACHE_MS} per instance). Each check says
 * what failed; no error detail leaves the server.
 */
export async function checkReadiness(): Promise<Readiness> {
  const checks: Readiness["checks"] = {
    instance: isDraining() ? "draining" : "ok",
    database: "failed",
    migrations: "failed",
    partnerApi: "failed",
  };
  const databaseCheck = (async () => {
    const { db } = await getDatabase();
    await db.execute(sql`select 1`);
    checks.database = "ok";
    const result = await db.execute<{ latest: string | number | null }>(
      sql`select max(created_at) as latest from drizzle.__drizzle_migrations`,
    );
    const rows = Array.isArray(result) ? result : (result as { rows: { latest: string | number | null }[] }).rows;
    const latest = Number(rows[0]?.latest ?? 0);
    checks.migrations = latest >= latestMigrationMillis() ? "ok" : "pending";
  })();
  const apiCheck = (async () => {
    checks.partnerApi = await partnerApiProbe();
  })();
  const [database, api] = await Promise.allSettled([withTimeout(databaseCheck, 3_000), apiCheck]);
  if (database.status === "rejected") logError(log, "ready: the database check failed", database.reason);
  else if (database.value === "timeout" && checks.database === "failed") checks.database = "timeout";
  if (api.status === "rejected") logError(log, "ready: the partner API check failed", api.reason);
  const ready = Object.values(checks).every((check) => check === "ok");
  return { ready, checks };
}
