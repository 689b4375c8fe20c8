/**
 * `npm run admin -- <command>`: operator commands on the app's database (scripts/admin-cli.ts).
 *
 *   create-operator --email <address> --name <name>   a platform operator, and their one-time
 *                                                     enrolment link (30 minutes)
 *   list-operators                                    the operators and their status
 *   disable-operator --email <address>                no more sign-in; open sessions end
 *   enrolment-link --email <address>                  a new one-time enrolment link (30 minutes)
 *   reseal-secrets                                    everything sealed at rest, sealed again under
 *                                                     the first key of SECRETS_KEYS
 *
 * The database is the server's: PostgreSQL when DATABASE_URL is set, else PGlite under
 * `$DATA_DIR/pglite` (default `.data`), which a running server holds locked: stop it first, or
 * use PostgreSQL. Links are built from APP_URL (default `http://localhost:$PORT`), printed on
 * standard output and nowhere else: hand them to their owner only. Exit codes: 0 done, 1 refused
 * or failed (the message says why), 2 the command itself was wrong.
 */

import { processSlot } from "../lib/process/singleton";

// Standard output carries the command's answer (a link, a list) and nothing else: the app's log
// lines go to standard error. Set before any of the app's modules load (lib/logger.ts reads it once).
processSlot<1 | 2>("logging.fd").set(2);
const { runAdmin } = await import("./admin-cli");

const code = await runAdmin({
  argv: process.argv.slice(2),
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
process.exit(code);

export {};
