/**
 * `npm run admin -- <command>`: operator commands on the app's database.
 *
 *   enrolment-link --email <address>   prints a one-time link (30 minutes) with which that staff
 *                                      member sets their password and two-step verification
 *
 * The database is the server's: PostgreSQL when DATABASE_URL is set, else PGlite under
 * `$DATA_DIR/pglite` (default `.data`), which a running server holds locked: stop it first, or
 * use PostgreSQL. The link is built from APP_URL (default `http://localhost:$PORT`). It is printed
 * on standard output and nowhere else: hand it to its owner only.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { normalizeEmail } from "../lib/backoffice/staff/rate-limit";
import { issueLink, LINK_TTL_MS, linkUrl } from "../lib/backoffice/staff/links";
import { openDatabase } from "../lib/db/connection";
import { DataDirInUseError } from "../lib/db/data-dir-lock";
import { staffUsers } from "../lib/db/schema";

const USAGE = "usage: npm run admin -- enrolment-link --email <address>\n";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { email: { type: "string" } } });
if (positionals[0] !== "enrolment-link" || positionals.length !== 1 || !values.email) fail(USAGE.trimEnd());

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = path.join(process.env.DATA_DIR || ".data", "pglite");
const appUrl = (process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, "");

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase({ databaseUrl, dataDir });
} catch (error) {
  if (error instanceof DataDirInUseError) {
    fail(`The app's server holds the database folder (${dataDir}): stop the server first, or run on PostgreSQL (DATABASE_URL).`);
  }
  fail(`The database could not be opened: ${error instanceof Error ? error.message : String(error)}`);
}

let code = 0;
try {
  const [user] = await database.db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(eq(staffUsers.email, normalizeEmail(values.email)))
    .limit(1);
  if (!user) {
    process.stderr.write("No staff member has that e-mail address.\n");
    code = 1;
  } else {
    const token = await issueLink(database.db, user.id, "enrolment", { by: "cli" });
    process.stdout.write(`${linkUrl(appUrl, token)}\n`);
    process.stderr.write(`Valid once, for ${LINK_TTL_MS / 60_000} minutes; a new link voids this one.\n`);
  }
} catch (error) {
  process.stderr.write(`No link was issued: ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
