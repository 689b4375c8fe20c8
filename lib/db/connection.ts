import "server-only";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { Logger } from "drizzle-orm/logger";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { openLockedPglite } from "./data-dir-lock";
import { shareSignals } from "./signals";
import { traceTransactions } from "./traced";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";

export type DatabaseSchema = typeof schema;

/**
 * The query API both drivers share, so callers and queries never care which one is behind it.
 * Only raw `execute()` results differ in shape between drivers: prefer the query builders.
 */
export type Db = PgDatabase<PgQueryResultHKT, DatabaseSchema>;

export type DatabaseDriver = "pglite" | "postgres";

export interface Database {
  db: Db;
  /**
   * For the background work (the worker's webhook processing, notifications, the reconciler): on
   * PostgreSQL a small pool of its own, so a request (a webhook delivery above all) never waits for
   * a connection behind it; on PGlite, which has one connection, the same as `db`.
   */
  background: Db;
  /**
   * For the webhook receiver's one statement: on PostgreSQL a pool whose commits do not wait for
   * the write-ahead log to reach the disk (`synchronous_commit=off`). That is safe for this write
   * only: the partner API redelivers an event until we acknowledge it, so a delivery lost in a
   * crash comes again, and any processing of it commits synchronously on another pool, which
   * flushes the log up to and past the delivery first. On PGlite, the same as `db`.
   */
  intake: Db;
  driver: DatabaseDriver;
  /** PGlite keeps the Node process alive until closed; postgres.js keeps its pool open. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; when set, `dataDir` is ignored. */
  databaseUrl?: string;
  /** The PGlite data folder, created if missing; `memory://` keeps the database in memory. */
  dataDir: string;
  /** Defaults to {@link defaultMigrationsDir}. */
  migrationsDir?: string;
  /** Told of every statement drizzle sends, on every handle (tests count them; the app gives none). */
  logger?: Logger;
}

// Next runs from the project root (dev, build and start), and so do scripts and Vitest, so the
// working directory is a reliable anchor; a bundled module's own URL would not be.
export function defaultMigrationsDir(): string {
  return path.join(process.cwd(), "lib", "db", "migrations");
}

// Any fixed 64-bit number works, as long as nothing else in the database uses it as a lock key.
const MIGRATION_LOCK_KEY = 7_305_160_027;

/** Opens a connection and applies pending migrations before handing it out. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsDir ?? defaultMigrationsDir();
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, migrationsFolder, options.logger);
  }
  return openPglite(options.dataDir, migrationsFolder, options.logger);
}

// PGlite is single-process: only one process may open a given data folder at a time (a second
// one would lose what either writes): the folder is locked (data-dir-lock.ts). Several app
// instances must share PostgreSQL through DATABASE_URL.
async function openPglite(dataDir: string, migrationsFolder: string, logger?: Logger): Promise<Database> {
  const { client, close } = await openLockedPglite(dataDir);
  try {
    const db = traceTransactions(drizzlePglite({ client, schema, ...(logger && { logger }) }), "requests");
    await migratePglite(db, { migrationsFolder });
    shareSignals([db]);
    return { db, background: db, intake: db, driver: "pglite", close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Every pool's behaviour when the database goes away (docs/operators/monitoring.md):
 * a connection that cannot be made fails within 5 s (postgres.js waits 30 s by default, and every
 * request would hang that long), a broken one fails its queries at once (CONNECTION_CLOSED) and is
 * dropped, and the next query opens a new one: the pool comes back by itself when the database
 * does. Idle connections are closed after a minute, and none is kept for more than 30 minutes, so
 * a server that restarted or failed over is not left with stale connections.
 */
export const POOL_OPTIONS = { connect_timeout: 5, idle_timeout: 60, max_lifetime: 30 * 60 } as const;

/** The requests' pool (postgres.js's default size), the webhook intake's and the background work's. */
const REQUEST_POOL_SIZE = 10;
const INTAKE_POOL_SIZE = 6;
const BACKGROUND_POOL_SIZE = 4;

async function openPostgres(databaseUrl: string, migrationsFolder: string, logger?: Logger): Promise<Database> {
  await migratePostgresLocked(databaseUrl, migrationsFolder);
  // postgres.js opens connections as they are needed, so an idle pool costs nothing.
  const client = postgres(databaseUrl, { ...POOL_OPTIONS, max: REQUEST_POOL_SIZE, onnotice: ignoreNotice });
  const intakeClient = postgres(databaseUrl, {
    ...POOL_OPTIONS,
    max: INTAKE_POOL_SIZE,
    onnotice: ignoreNotice,
    connection: { synchronous_commit: "off" },
  });
  const backgroundClient = postgres(databaseUrl, { ...POOL_OPTIONS, max: BACKGROUND_POOL_SIZE, onnotice: ignoreNotice });
  const handles = {
    db: traceTransactions(drizzlePostgres({ client, schema, ...(logger && { logger }) }), "requests"),
    intake: traceTransactions(drizzlePostgres({ client: intakeClient, schema, ...(logger && { logger }) }), "intake"),
    background: traceTransactions(drizzlePostgres({ client: backgroundClient, schema, ...(logger && { logger }) }), "background"),
  };
  // Wake-ups (signals.ts) are sent and listened for by the background work's client: its listening
  // connection is one of its own, beside the pool.
  shareSignals([handles.db, handles.intake, handles.background], backgroundClient);
  return {
    ...handles,
    driver: "postgres",
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), intakeClient.end({ timeout: 5 }), backgroundClient.end({ timeout: 5 })]);
    },
  };
}

// Instances behind a load balancer start together, and drizzle's migrator takes no lock of its
// own: without one, two of them would both try to create the same tables and one would crash.
// The advisory lock is per session, so it runs on a dedicated single-connection client.
async function migratePostgresLocked(databaseUrl: string, migrationsFolder: string): Promise<void> {
  const client = postgres(databaseUrl, { max: 1, onnotice: ignoreNotice });
  try {
    const db = drizzlePostgres({ client, schema });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      await migratePostgres(db, { migrationsFolder });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

// The migrator's `create schema if not exists` raises NOTICEs that postgres.js would print.
function ignoreNotice(): void {}

export type DatabaseCheck = { ok: true } | { ok: false; error: unknown };

/** For the health endpoint: the error is for the log, not for the response body. */
export async function checkDatabase(database: Database): Promise<DatabaseCheck> {
  try {
    await database.db.execute(sql`select 1`);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}
