import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter } from "vitest/node";
import { defineConfig } from "vitest/config";
import { findTestDatabase } from "./scripts/test-database.mjs";

// The tests on PostgreSQL (`describe.runIf(process.env.TEST_DATABASE_URL)`) run against the local
// server when it answers, without anyone exporting the variable (scripts/test-database.mjs); the
// test workers, started after this, inherit it. A skip is said here, once, not only as "skipped".
const database = await findTestDatabase(process.env);
if (database.url !== undefined) process.env.TEST_DATABASE_URL = database.url;
process.stderr.write(`[vitest] PostgreSQL: ${database.url ?? "none"} (${database.reason})\n`);

const root = fileURLToPath(new URL("./", import.meta.url));

/** After the run, its ten slowest test files (their tests and hooks, import apart), slowest first. */
const slowestFiles: Reporter = {
  onTestRunEnd(testModules) {
    const rows = testModules
      .map((module) => ({ file: path.relative(root, module.moduleId), ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (rows.length < 2) return;
    const lines = rows.map((row) => `${`${(row.ms / 1000).toFixed(1)} s`.padStart(9)}  ${row.file}`);
    process.stdout.write(`\nSlowest test files:\n${lines.join("\n")}\n\n`);
  },
};

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests run the server code directly.
      "server-only": fileURLToPath(new URL("./lib/testing/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["{app,components,deploy,lib,scripts}/**/*.test.{ts,tsx}"],
    environment: "node",
    // Every in-memory test database starts from one fresh PGlite cluster made for the run, not from
    // its own initdb (lib/testing/pglite-cluster.global.ts).
    globalSetup: ["lib/testing/pglite-cluster.global.ts"],
    setupFiles: ["lib/testing/pglite-cluster.setup.ts"],
    reporters: ["default", slowestFiles],
    // Generous bounds, so that no test fails on the machine's speed alone: PGlite boots a WebAssembly
    // PostgreSQL and the password hashes are slow on purpose, and beside other heavy work (load
    // 10–30 on 2 cores) one test's database set-up took over a minute. A test that is stuck still
    // fails, later. Tests that boot several databases from folders state longer bounds of their own.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // `expect.poll` waits for something another task does (a request served, a timer run): its
    // default of 1 s failed on a machine at load 10–14; a poll that succeeds stops at once, so a
    // generous bound costs nothing.
    expect: { poll: { timeout: 30_000 } },
    // One test file per core, not Vitest's default of one fewer: the files spend much of their time
    // waiting (PGlite's files, the sandbox's and the partner doubles' HTTP servers, timers), so on
    // the 2-core CI machine two workers took the run from 374 s to 179 s (82 files, none flaky).
    // Files that use PostgreSQL each create their own throwaway database.
    maxWorkers: availableParallelism(),
  },
});
