import { readFileSync } from "node:fs";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { inject } from "vitest";

/*
 * Each test file's set-up: an in-memory PGlite (`memory://`) starts from the fresh cluster the
 * global set-up made (lib/testing/pglite-cluster.global.ts) rather than from initdb. The database
 * is the same empty cluster either way; the migrations still run on it as in production.
 * Databases in folders are left alone: their first open is what the app does on a new machine.
 */

const create = PGlite.create.bind(PGlite);
// Read when a test first opens an in-memory database (~40 MB: most test files open none).
let cluster: Blob | undefined;

/** The options for a database in `dataDir`: unchanged unless it is in memory and starts empty. */
function fromCluster(dataDir: string | undefined, options: PGliteOptions | undefined): PGliteOptions | undefined {
  if (!dataDir?.startsWith("memory://") || options?.loadDataDir) return options;
  cluster ??= new Blob([readFileSync(inject("pgliteClusterTarball"))], { type: "application/x-tar" });
  return { ...options, loadDataDir: cluster };
}

PGlite.create = ((dataDirOrOptions?: string | PGliteOptions, options?: PGliteOptions) =>
  typeof dataDirOrOptions === "string"
    ? create(dataDirOrOptions, fromCluster(dataDirOrOptions, options))
    : create(fromCluster(dataDirOrOptions?.dataDir, dataDirOrOptions))) as typeof PGlite.create;
