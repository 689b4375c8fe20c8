import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { findTestDatabase } from "./scripts/test-database.mjs";

// The tests on PostgreSQL (`describe.runIf(process.env.TEST_DATABASE_URL)`) run against the local
// server when it answers, without anyone exporting the variable (scripts/test-database.mjs); the
// test workers, started after this, inherit it. A skip is said here, once, not only as "skipped".
const database = await findTestDatabase(process.env);
if (database.url !== undefined) process.env.TEST_DATABASE_URL = database.url;
process.stderr.write(`[vitest] PostgreSQL: ${database.url ?? "none"} (${database.reason})\n`);

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside React Server Components; unit tests run the server code directly.
      "server-only": fileURLToPath(new URL("./lib/testing/server-only.ts", import.meta.url)),
    },
  },
  test: {
    include: ["{app,components,lib,scripts}/**/*.test.{ts,tsx}"],
    environment: "node",
    // Every in-memory test database starts from one fresh PGlite cluster made for the run, not from
    // its own initdb (lib/testing/pglite-cluster.global.ts).
    globalSetup: ["lib/testing/pglite-cluster.global.ts"],
    setupFiles: ["lib/testing/pglite-cluster.setup.ts"],
    // PGlite boots a WebAssembly PostgreSQL: give slow shared machines room.
    testTimeout: 30_000,
    // One test file per core, not Vitest's default of one fewer: the files spend much of their time
    // waiting (PGlite's files, the sandbox's and the partner doubles' HTTP servers, timers), so on
    // the 2-core CI machine two workers took the run from 374 s to 179 s (82 files, none flaky).
    // Files that use PostgreSQL each create their own throwaway database.
    maxWorkers: availableParallelism(),
    hookTimeout: 60_000,
  },
});
