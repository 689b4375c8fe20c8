// Which PostgreSQL the tests that prove the several-instances path use (docs/contributors/tests.md). Plain
// JavaScript, like chromium.mjs, so `node scripts/e2e.mjs` and vitest.config.ts share it without a
// loader. `npm test` alone runs them on a machine that has the usual local server; no one has to
// remember to export a variable first (CI did; a developer running `npm test` skipped them all).
import postgres from "postgres";

/** The machine's PostgreSQL, where these machines have one: trust auth, database `test`. */
export const LOCAL_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * TEST_DATABASE_URL when it is set (set and empty: no PostgreSQL, those tests skip); otherwise the
 * local server's URL when it answers a query within `timeoutS` seconds; otherwise undefined, with
 * `reason` saying why, for the caller to print (a skip is said aloud, not left to a test report).
 *
 * @param {Record<string, string | undefined>} env
 * @param {(url: string, timeoutS: number) => Promise<void>} [probe] runs one query (tests give theirs)
 * @returns {Promise<{ url: string | undefined; reason: string }>}
 */
export async function findTestDatabase(env, probe = queryOnce, timeoutS = 3) {
  if (env.TEST_DATABASE_URL !== undefined) {
    return env.TEST_DATABASE_URL.trim() === ""
      ? { url: undefined, reason: "TEST_DATABASE_URL is set and empty: the PostgreSQL tests are skipped" }
      : { url: env.TEST_DATABASE_URL, reason: "TEST_DATABASE_URL, as given" };
  }
  try {
    await probe(LOCAL_TEST_DATABASE_URL, timeoutS);
    return { url: LOCAL_TEST_DATABASE_URL, reason: "the local PostgreSQL answered" };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      url: undefined,
      reason: `no PostgreSQL answered at ${LOCAL_TEST_DATABASE_URL} (${why}): the PostgreSQL tests are skipped; set TEST_DATABASE_URL to run them`,
    };
  }
}

/**
 * One `select 1` on `url`, then the connection closed (nothing left to keep the process alive).
 *
 * @param {string} url
 * @param {number} timeoutS
 */
export async function queryOnce(url, timeoutS) {
  const sql = postgres(url, { max: 1, connect_timeout: timeoutS, idle_timeout: 1, onnotice: () => {} });
  try {
    await sql`select 1`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
