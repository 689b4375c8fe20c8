import "server-only";
import path from "node:path";
import { getEnv } from "@/lib/config/env";
import { processSlot } from "@/lib/process/singleton";
import { openDatabase, type Database } from "./connection";

export {
  checkDatabase,
  defaultMigrationsDir,
  openDatabase,
  type Database,
  type DatabaseCheck,
  type DatabaseDriver,
  type DatabaseSchema,
  type Db,
  type OpenDatabaseOptions,
} from "./connection";
export { getStatusSnapshot, saveStatusSnapshot } from "./status-snapshots";
export { statusSnapshots, type NewStatusSnapshot, type StatusSnapshot } from "./schema";

// One per process (lib/process/singleton.ts): a module-level variable would be lost when Next's dev
// server re-evaluates modules, and PGlite would try to open the same data folder a second time.
const databaseSlot = processSlot<Promise<Database>>("db.database");

/**
 * The process-wide database, opened (and migrated) on first use. The promise itself is shared so
 * that concurrent first requests wait for one open instead of racing to start several.
 */
export function getDatabase(): Promise<Database> {
  let opening = databaseSlot.get();
  if (!opening) {
    const env = getEnv();
    opening = openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: path.join(env.DATA_DIR, "pglite"),
    });
    databaseSlot.set(opening);
    // A failed open (server down, bad migration) must not be cached: the next call tries again.
    opening.catch(() => {
      if (databaseSlot.get() === opening) databaseSlot.clear();
    });
  }
  return opening;
}

/** Lets scripts and tests end: an open PGlite or postgres.js pool keeps Node running. */
export async function closeDatabase(): Promise<void> {
  const opening = databaseSlot.get();
  if (!opening) return;
  databaseSlot.clear();
  let database: Database;
  try {
    database = await opening;
  } catch {
    // Nothing was opened, so there is nothing to close; getDatabase's caller saw the error.
    return;
  }
  await database.close();
}
