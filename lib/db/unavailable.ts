/**
 * "The database cannot be reached" told apart from every other database error, so that it is
 * answered 503 ("try again in a moment") and not 500: the network or the server is down, and a
 * retry later will succeed, whereas a constraint violation or a bad query will not.
 *
 * Unreachable is: a socket error (refused, reset, timed out, no route, name not resolved), one of
 * postgres.js's own connection errors (closed, ended, destroyed, connect timeout), or a PostgreSQL
 * error of the "connection exception" class (SQLSTATE 08…) or the server shutting down or starting
 * (57P01–57P03) or out of connection slots (53300). The error may be wrapped by drizzle (its
 * DrizzleQueryError: the query, its parameters, the driver's error as cause), by us (an AppError),
 * or be Node's AggregateError (an address tried over IPv4 and IPv6): only those are looked into.
 * Any other error's cause is not, so a partner API call refused (fetch's "fetch failed" over an
 * ECONNREFUSED) is never taken for the database.
 *
 * Pure (no `server-only`): the classification is tested on its own.
 */

const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EADDRNOTAVAIL",
]);

/** postgres.js's errors about the connection itself (its `code`). */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);

/** PostgreSQL's SQLSTATEs that mean "not now", whatever the query. */
const SERVER_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** The AppError code that carries it (lib/app-error.ts); recognised here too, when wrapped again. */
export const DATABASE_UNAVAILABLE = "database_unavailable";

const MAX_DEPTH = 6;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (SOCKET_CODES.has(code) || DRIVER_CODES.has(code) || SERVER_STATES.has(code) || code === DATABASE_UNAVAILABLE) return true;
    // A PostgreSQL error (postgres.js's PostgresError, PGlite's) carries its SQLSTATE as `code`.
    if (/^08[0-9A-Z]{3}$/.test(code) && isPostgresError(error)) return true;
  }
  if (error instanceof AggregateError) return error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
  return isWrapper(error) && isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}

/** drizzle's query wrapper (a `query` and its `params`), or our AppError. */
function isWrapper(error: object): boolean {
  const name = (error as { name?: unknown }).name;
  return name === "AppError" || (typeof (error as { query?: unknown }).query === "string" && "params" in error);
}

function isPostgresError(error: object): boolean {
  // postgres.js: PostgresError with `severity`; PGlite: DatabaseError with `severity` too.
  return "severity" in error || (error as { name?: unknown }).name === "PostgresError";
}
