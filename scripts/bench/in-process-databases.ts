import { openDatabase, type Database } from "../../lib/db";
import { throwawayDatabase } from "./postgres";

/*
 * The databases an in-process bench (bench:webhooks, bench:notifications) runs on, one after the
 * other: PGlite in memory, and PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a
 * server, on a throwaway database dropped afterwards. Each is closed after its run.
 */
export async function onEachDatabase(
  drivers: ReadonlySet<string>,
  run: (label: string, database: Database) => Promise<void>,
): Promise<void> {
  if (drivers.has("pglite")) {
    const pglite = await openDatabase({ dataDir: "memory://" });
    try {
      await run("PGlite (embedded)", pglite);
    } finally {
      await pglite.close();
    }
  }
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!drivers.has("postgres")) return;
  if (!serverUrl) {
    console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a server)");
    return;
  }
  const throwaway = await throwawayDatabase(serverUrl, `bench_${Date.now()}`);
  const database = await openDatabase({ databaseUrl: throwaway.url, dataDir: "" });
  try {
    await run("PostgreSQL", database);
  } finally {
    await database.close();
    await throwaway.drop();
  }
}
