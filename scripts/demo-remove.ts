/**
 * `npm run demo:remove`: removes the sandbox's demo data (the demo partners, their staff and the
 * staff's sessions, their checkout sessions and everything hanging from them) from the app's
 * database, in one transaction. Run it, with the server stopped, before a database that served the
 * sandbox serves the production partner API: the demo's credentials are published, and the server
 * refuses to start in production while they are there (lib/startup.ts).
 *
 * The database is the server's: PostgreSQL when DATABASE_URL is set, else PGlite under
 * `$DATA_DIR/pglite` (default `.data`). No other setting is needed (no API key, no SECRETS_KEYS).
 */
import path from "node:path";
import { openDatabase } from "../lib/db/connection";
import { removeDemoData } from "../lib/demo/remove";
import { logError, loggerFor } from "../lib/logger";

const log = loggerFor("demo-remove");

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = path.join(process.env.DATA_DIR || ".data", "pglite");

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase({ databaseUrl, dataDir });
} catch (error) {
  // Also what a running server's lock on the PGlite folder looks like.
  logError(log, "demo:remove: the database could not be opened (stop the server first)", error);
  process.exit(1);
}

let code = 0;
try {
  const removed = await removeDemoData(database.db);
  log.info(
    { database: databaseUrl ? "postgresql" : "pglite", partners: removed.partners, staff: removed.staff, sessions: removed.sessions },
    removed.partners + removed.staff === 0 ? "demo:remove: no demo data here" : "demo:remove: the demo data is removed",
  );
} catch (error) {
  logError(log, "demo:remove: nothing was removed", error);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
