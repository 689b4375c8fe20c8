import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";

/*
 * Vitest's global set-up: boots one fresh PGlite cluster (what `initdb` makes, before any migration)
 * and keeps its data folder as a tarball for the run. lib/testing/pglite-cluster.setup.ts then
 * starts every in-memory PGlite of the tests from it instead of running initdb again: initdb was
 * most of the ~3 s a test database took to open, and the unit tests open about fifty.
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** The fresh cluster's tarball, for the tests' in-memory databases. */
    pgliteClusterTarball: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const client = await PGlite.create("memory://");
  const tarball = await client.dumpDataDir("none");
  await client.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-pglite-"));
  const file = path.join(dir, "cluster.tar");
  writeFileSync(file, new Uint8Array(await tarball.arrayBuffer()));
  project.provide("pgliteClusterTarball", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
