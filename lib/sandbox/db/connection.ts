import "server-only";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite, type PgliteDatabase } from "drizzle-orm/pglite";
import { openLockedPglite } from "@/lib/db/data-dir-lock";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

/**
 * The sandbox's database: its own (stand-alone `npm run sandbox`, tests) or the app's handle when
 * the app serves it. Either way its tables live in the `sandbox` schema and its migrations are
 * recorded in `sandbox.__drizzle_migrations`, so they never meet the app's (`drizzle.__drizzle_migrations`).
 *
 * Only query builders are used on it (raw `execute()` results differ between drivers).
 */

// Any query-builder database works: the sandbox never uses the relational `db.query` API.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SandboxDb = PgDatabase<PgQueryResultHKT, any>;

export type SandboxDriver = "pglite" | "postgres";

export interface SandboxDatabase {
  db: SandboxDb;
  driver: SandboxDriver;
  /** Closes what the sandbox opened itself; a shared handle is left to its owner. */
  close(): Promise<void>;
}

export const SANDBOX_MIGRATIONS = { migrationsSchema: "sandbox", migrationsTable: "__drizzle_migrations" } as const;

// Next runs from the project root, and so do scripts and Vitest (as for the app's migrations).
export function sandboxMigrationsDir(): string {
  return path.join(process.cwd(), "lib", "sandbox", "db", "migrations");
}

// Not the app's lock key: the two migrate different schemas and may run side by side.
const SANDBOX_MIGRATION_LOCK_KEY = 7_305_160_113;

export interface OpenSandboxDatabaseOptions {
  /** A PostgreSQL URL; when set, `dataDir` is ignored. */
  databaseUrl?: string;
  /** The PGlite data folder, created if missing; `memory://` keeps it in memory (tests). */
  dataDir: string;
}

/** A database of the sandbox's own, migrated. */
export async function openSandboxDatabase(options: OpenSandboxDatabaseOptions): Promise<SandboxDatabase> {
  if (options.databaseUrl) {
    await migratePostgresLocked(options.databaseUrl);
    const client = postgres(options.databaseUrl, { onnotice: ignoreNotice });
    return { db: drizzlePostgres({ client }), driver: "postgres", close: () => client.end({ timeout: 5 }) };
  }
  // Locked as the app's is: a second sandbox on the same folder would lose what either writes.
  const { client, close } = await openLockedPglite(options.dataDir);
  try {
    const db = drizzlePglite({ client });
    await migratePglite(db, { migrationsFolder: sandboxMigrationsDir(), ...SANDBOX_MIGRATIONS });
    return { db, driver: "pglite", close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The app's own database handle (PGlite allows one per data folder and process, so the sandbox
 * must use the very same one), with the sandbox's migrations applied. `databaseUrl` is the
 * PostgreSQL URL behind a `postgres` handle: migrations run under a lock on a connection of their own.
 */
export async function shareDatabase(shared: { db: unknown; driver: SandboxDriver }, databaseUrl?: string): Promise<SandboxDatabase> {
  if (shared.driver === "pglite") {
    await migratePglite(shared.db as PgliteDatabase, { migrationsFolder: sandboxMigrationsDir(), ...SANDBOX_MIGRATIONS });
  } else if (databaseUrl) {
    await migratePostgresLocked(databaseUrl);
  } else {
    await migratePostgres(shared.db as PostgresJsDatabase, { migrationsFolder: sandboxMigrationsDir(), ...SANDBOX_MIGRATIONS });
  }
  return { db: shared.db as SandboxDb, driver: shared.driver, close: async () => {} };
}

// Instances start together and drizzle's migrator takes no lock: a session advisory lock on a
// dedicated single-connection client keeps two of them from creating the same tables at once.
async function migratePostgresLocked(databaseUrl: string): Promise<void> {
  const client = postgres(databaseUrl, { max: 1, onnotice: ignoreNotice });
  try {
    const db = drizzlePostgres({ client });
    await db.execute(sql`select pg_advisory_lock(${SANDBOX_MIGRATION_LOCK_KEY})`);
    try {
      await migratePostgres(db, { migrationsFolder: sandboxMigrationsDir(), ...SANDBOX_MIGRATIONS });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${SANDBOX_MIGRATION_LOCK_KEY})`);
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

// The migrator's `create schema if not exists` raises NOTICEs that postgres.js would print.
function ignoreNotice(): void {}
