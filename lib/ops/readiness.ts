import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { defaultMigrationsDir, getDatabase } from "@/lib/db";
import { logError, loggerFor } from "@/lib/logger";
import { processSingleton } from "@/lib/process/singleton";
import { isDraining } from "./lifecycle";
import { createSharedProbe } from "./shared-probe";

const log = loggerFor("ready");

/** How long an outside system (the partner API) may take to answer the readiness probe's call. */
export const READY_API_TIMEOUT_MS = 2_000;

/**
 * How long one answer of an outside system's check stands for this instance: `/api/ready` is public
 * (load balancers cannot authenticate), and without this each request would be one call on the
 * deployment's key, whose rate limit every partner's checkouts share.
 */
export const READY_API_CACHE_MS = 5_000;

export type CheckResult = "ok" | "failed" | "timeout" | "pending" | "draining";

export interface Readiness {
  ready: boolean;
  /** The instance's own checks, and one per registered outside system (the composition's `partnerApi`). */
  checks: { instance: CheckResult; database: CheckResult; migrations: CheckResult } & Record<string, CheckResult>;
}

/**
 * A check of an outside system this instance cannot serve without: resolves when it answers
 * within `timeoutMs`; a rejection whose `kind` is "timeout" reads as one.
 */
export interface ReadinessCheck {
  timeoutMs: number;
  check(): Promise<unknown>;
}

type OutsideResult = Extract<CheckResult, "ok" | "failed" | "timeout">;

// One per process (lib/process/singleton.ts): the start-up code registers, the /api/ready route (another bundle) checks.
function registeredChecks(): Map<string, () => Promise<OutsideResult>> {
  return processSingleton("ops.readiness-checks", () => new Map<string, () => Promise<OutsideResult>>());
}

/**
 * Adds a check to readiness, under `name` (platform code knows no domain: the composition, at
 * start-up, registers the partner API's health call).
 */
export function registerReadinessCheck(name: string, { timeoutMs, check }: ReadinessCheck): void {
  // One call per instance per window, concurrent probes sharing the one under way.
  const probe = createSharedProbe<OutsideResult>(READY_API_CACHE_MS, async () => {
    try {
      const answer = await withTimeout(check(), timeoutMs);
      return answer === "timeout" ? "timeout" : "ok";
    } catch (error) {
      const timedOut = error instanceof Error && "kind" in error && error.kind === "timeout";
      // The error by its safe shape (the logger's serializer): why, for the operator (a refused
      // certificate, a refused key), never echoed to the caller.
      log.warn({ check: name, result: timedOut ? "timeout" : "failed", err: error }, "ready: an outside system's check failed");
      return timedOut ? "timeout" : "failed";
    }
  });
  registeredChecks().set(name, probe);
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

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/**
 * Readiness, distinct from liveness (`/api/health`): this instance takes traffic only when it is not
 * draining, the database answers, every migration this build ships is applied (drizzle records
 * each by its folder time), and every registered outside system answers in time (the partner API
 * its health call within 2 s with the deployment's key), asked at most once per
 * {@link READY_API_CACHE_MS} per instance. Each check says what failed; no error detail leaves the server.
 */
export async function checkReadiness(): Promise<Readiness> {
  const checks: Readiness["checks"] = {
    instance: isDraining() ? "draining" : "ok",
    database: "failed",
    migrations: "failed",
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
  const outside = [...registeredChecks()].map(async ([name, probe]) => {
    checks[name] = "failed";
    checks[name] = await probe();
  });
  const [database] = await Promise.allSettled([withTimeout(databaseCheck, 3_000), ...outside]);
  if (database.status === "rejected") logError(log, "ready: the database check failed", database.reason);
  else if (database.value === "timeout" && checks.database === "failed") checks.database = "timeout";
  const ready = Object.values(checks).every((check) => check === "ok");
  return { ready, checks };
}
