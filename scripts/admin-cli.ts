/**
 * The operator's commands on the app's database (`npm run admin -- <command>`), as a function of
 * its arguments, environment and output streams, so the tests run it as the shell does. See
 * scripts/admin.ts for the commands and docs/going-live.md for how they are used.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { normalizeEmail } from "../lib/identity/rate-limit";
import { issueLink, LINK_TTL_MS, linkUrl } from "../lib/identity/links";
import { openDatabase, type Database } from "../lib/db/connection";
import { DataDirInUseError } from "../lib/db/data-dir-lock";
import { staffUsers } from "../lib/db/schema";
import { KeyringError, parseKeyring, sandboxKeyring, type Keyring } from "../lib/config/keyring";
import { createOperator, disableOperator, listOperators } from "../lib/operator/operators";
import { resealAll } from "../lib/operator/reseal";

export const USAGE = `usage: npm run admin -- <command>

  create-operator --email <address> --name <name>
      creates a platform operator and prints a one-time enrolment link (30 minutes), with which
      they choose their password and set up two-step verification
  list-operators
      lists the operators: e-mail, name, status, created
  disable-operator --email <address>
      disables an operator: their sessions end at once, they cannot sign in again
  enrolment-link --email <address>
      prints a new one-time enrolment link (30 minutes) for an account that has not set up its
      access yet (an operator or a partner's staff member); it voids the one before
  reseal-secrets
      seals again, under the first key of SECRETS_KEYS, everything sealed at rest (partners' keys
      and signing secrets, staff's second-factor secrets, customers' data) that is still plaintext
      or sealed under another key; says how many, and how many no listed key opens (the server does
      the same at every start). Run it with the server's SECRETS_KEYS.

The database is the server's: PostgreSQL when DATABASE_URL is set, else PGlite under
$DATA_DIR/pglite (default .data), which a running server holds locked: stop it first, or use
PostgreSQL. Links are built from APP_URL (default http://localhost:$PORT). A link is printed on
standard output and nowhere else: hand it to its owner only.`;

/** Exit codes: done; refused or failed (the message says why); the command itself was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface AdminIo {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** How the database is opened (tests hand in theirs). */
  open?: (options: { databaseUrl?: string; dataDir: string }) => Promise<Database>;
}

const COMMANDS = {
  "create-operator": ["email", "name"],
  "list-operators": [],
  "disable-operator": ["email"],
  "enrolment-link": ["email"],
  "reseal-secrets": [],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof COMMANDS;

function isCommand(value: string | undefined): value is Command {
  return value !== undefined && Object.hasOwn(COMMANDS, value);
}

export async function runAdmin(io: AdminIo): Promise<number> {
  const usage = (problem?: string) => {
    io.err(`${problem ? `${problem}\n\n` : ""}${USAGE}\n`);
    return EXIT.usage;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(io.argv);
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const { positionals, values } = parsed;
  if (values.help || positionals[0] === "help") {
    io.out(`${USAGE}\n`);
    return EXIT.ok;
  }
  const command = positionals[0];
  if (!isCommand(command)) return usage(command ? `Unknown command: ${command}` : undefined);
  if (positionals.length > 1) return usage(`Unexpected argument: ${positionals[1]}`);
  const wanted: readonly string[] = COMMANDS[command];
  for (const option of ["email", "name"] as const) {
    const given = values[option] !== undefined;
    if (wanted.includes(option) && (!given || values[option]!.trim() === "")) return usage(`${command} needs --${option}.`);
    if (!wanted.includes(option) && given) return usage(`${command} takes no --${option}.`);
  }

  const databaseUrl = io.env.DATABASE_URL || undefined;
  const dataDir = path.join(io.env.DATA_DIR || ".data", "pglite");
  const appUrl = (io.env.APP_URL || `http://localhost:${io.env.PORT || 3000}`).replace(/\/+$/, "");
  let database: Database;
  try {
    database = await (io.open ?? openDatabase)({ databaseUrl, dataDir });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      io.err(`The app's server holds the database folder (${dataDir}): stop the server first, or run on PostgreSQL (DATABASE_URL).\n`);
    } else {
      io.err(`The database could not be opened: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return EXIT.failed;
  }
  try {
    return await run(command, { email: values.email ?? "", name: values.name ?? "" }, database, appUrl, io);
  } catch (error) {
    io.err(`Nothing was done: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  } finally {
    await database.close();
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { email: { type: "string" }, name: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

async function run(
  command: Command,
  input: { email: string; name: string },
  database: Database,
  appUrl: string,
  io: AdminIo,
): Promise<number> {
  const { db } = database;
  switch (command) {
    case "create-operator": {
      const result = await createOperator(db, input, { by: "cli" });
      if (!result.ok) {
        if (result.reason === "invalid_email") io.err(`Not an e-mail address: ${input.email}\n`);
        else if (result.reason === "invalid_name") io.err("The name must be 1 to 100 characters, without control characters.\n");
        else io.err("Someone already signs in with that e-mail address (an operator or a partner's staff member): nothing was created.\n");
        return result.reason === "email_taken" ? EXIT.failed : EXIT.usage;
      }
      io.out(`${linkUrl(appUrl, result.link.token)}\n`);
      io.err(
        `Operator created. The link above is valid once, for ${minutes(LINK_TTL_MS)}: hand it to them only. ` +
          `There they choose a password and set up two-step verification; then they sign in at ${appUrl}/admin/login.\n`,
      );
      return EXIT.ok;
    }
    case "list-operators": {
      const operators = await listOperators(db);
      if (operators.length === 0) {
        io.err("No operators yet: create one with create-operator.\n");
        return EXIT.ok;
      }
      io.out("email\tname\tstatus\tcreated\n");
      for (const operator of operators) {
        const status = operator.disabledAt ? "disabled" : operator.twoFactor ? "active" : "enrolment pending";
        io.out(`${operator.email}\t${operator.name}\t${status}\t${operator.createdAt.toISOString()}\n`);
      }
      return EXIT.ok;
    }
    case "disable-operator": {
      const result = await disableOperator(db, input.email, { by: "cli" });
      if (!result.ok) {
        io.err(result.reason === "already_disabled" ? "That operator is disabled already.\n" : "No operator has that e-mail address.\n");
        return EXIT.failed;
      }
      io.out(`Disabled. ${result.endedSessions === 1 ? "1 open session ended" : `${result.endedSessions} open sessions ended`}.\n`);
      return EXIT.ok;
    }
    case "enrolment-link": {
      const [user] = await db
        .select({ id: staffUsers.id, disabledAt: staffUsers.disabledAt, enrolledAt: staffUsers.totpEnabledAt })
        .from(staffUsers)
        .where(eq(staffUsers.email, normalizeEmail(input.email)))
        .limit(1);
      if (!user) {
        io.err("No staff member has that e-mail address.\n");
        return EXIT.failed;
      }
      if (user.disabledAt) {
        io.err("That account is disabled: a link would open nothing.\n");
        return EXIT.failed;
      }
      if (user.enrolledAt) {
        io.err(
          "That account has already set up its access (password and second factor): an enrolment link would sign in with a code alone, so none is given. " +
            "A lost password: 'Forgot your password?' on the sign-in page. A lost second factor: a partner's administrator resets it on the member's page, which gives a new link.\n",
        );
        return EXIT.failed;
      }
      const token = await issueLink(db, user.id, "enrolment", { by: "cli" });
      io.out(`${linkUrl(appUrl, token)}\n`);
      io.err(`Valid once, for ${minutes(LINK_TTL_MS)}; a new link voids this one.\n`);
      return EXIT.ok;
    }
    case "reseal-secrets": {
      // The server's keys: SECRETS_KEYS as it reads it (unset: the sandbox's published key, as the server then uses).
      let keyring: Keyring;
      try {
        keyring = io.env.SECRETS_KEYS ? parseKeyring(io.env.SECRETS_KEYS) : sandboxKeyring();
      } catch (error) {
        if (!(error instanceof KeyringError)) throw error;
        io.err(`SECRETS_KEYS: ${error.message}\n`);
        return EXIT.usage;
      }
      const report = await resealAll(db, keyring);
      io.out(
        `Sealed again under the key "${keyring[0].id}": ${report.partnerSecrets} partner secrets, ` +
          `${report.staffSecrets.resealed} staff second-factor secrets, ${report.customerData.resealed} customers' data.\n`,
      );
      if (report.staffSecrets.unreadable > 0 || report.customerData.unreadable > 0) {
        io.err(
          `No listed key opens ${report.staffSecrets.unreadable} staff second-factor secrets and ${report.customerData.unreadable} customers' data ` +
            "(their session ids are in the log): they stay as they are. Keep listing the key that sealed them, or reset those accounts' second step; " +
            "a customer's data no key opens is shown as unavailable.\n",
        );
      }
      return EXIT.ok;
    }
  }
}
