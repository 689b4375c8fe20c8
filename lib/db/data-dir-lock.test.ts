import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSandboxDatabase } from "@/lib/sandbox/db/connection";
import { openDatabase } from "./connection";
import { DataDirInUseError, DataDirUnusableError, lockDataDir, lockPathOf } from "./data-dir-lock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "data-dir-lock-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(lockFile(), { force: true });
});

/** Beside the folder, not in it: the folder is PostgreSQL's own. */
const lockFile = () => lockPathOf(dir);

/**
 * The tests that create a database in a folder (PostgreSQL's initdb, in WebAssembly) and open it
 * again: over a minute each on a busy 2-core machine, so a generous bound.
 */
const FOLDER_DATABASE = { timeout: 300_000 };

describe("the embedded database's data folder", () => {
  it("is held by one process: a second open is refused with what to do, and the folder is free once closed", FOLDER_DATABASE, async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toThrow(DataDirInUseError);
    await expect(second).rejects.toThrow(/only one process may open the embedded database .*DATABASE_URL/);
    // The refused open left the first one's lock alone.
    expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    await first.close();
    expect(existsSync(lockFile())).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it("the standalone sandbox's folder is held the same way", FOLDER_DATABASE, async () => {
    const first = await openSandboxDatabase({ dataDir: dir });
    await expect(openSandboxDatabase({ dataDir: dir })).rejects.toThrow(DataDirInUseError);
    await first.close();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("refuses while another live process holds it, and takes it over once that process is gone", async () => {
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      writeFileSync(lockFile(), `${other.pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(`in use by another process (pid ${other.pid})`);
    } finally {
      other.kill("SIGKILL");
      await once(other, "exit");
    }
    // Killed (kill -9, a crash): its lock is stale.
    const release = lockDataDir(dir);
    expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("takes over a lock naming this process's id that this process never took (a container restarted under the same id)", () => {
    writeFileSync(lockFile(), `${process.pid}\n`);
    const release = lockDataDir(dir);
    // But this process taking it twice is refused.
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    release();
  });

  it("refuses a folder it cannot use, naming DATA_DIR, the folder and the cause: DATA_DIR a file, or its pglite folder a file", async () => {
    const file = path.join(dir, "a-file");
    writeFileSync(file, "not a folder\n");
    const underFile = path.join(file, "pglite");
    const refused = openDatabase({ dataDir: underFile });
    await expect(refused).rejects.toThrow(DataDirUnusableError);
    await expect(refused).rejects.toThrow(
      `DATA_DIR: the embedded database's folder ${underFile} cannot be used: a part of the path is a file, not a folder (ENOTDIR)`,
    );
    await expect(openSandboxDatabase({ dataDir: underFile })).rejects.toThrow("(ENOTDIR)");
    await expect(openDatabase({ dataDir: file })).rejects.toThrow(
      `folder ${file} cannot be used: it exists and is a file, not a folder (EEXIST)`,
    );
    // Nothing was left behind: no lock beside either.
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it("says in plain words what PGlite's file system refused, though what it throws is no Error", () => {
    // What PGlite throws on a folder it may not write (seen as `{"type":"object"}` in the log).
    const errnoError = { name: "ErrnoError", errno: 63 };
    const error = new DataDirUnusableError("/srv/app/.data/pglite", errnoError);
    expect(error.message).toBe(
      "DATA_DIR: the embedded database's folder /srv/app/.data/pglite cannot be used: the operation is not permitted " +
        "(the folder or a file in it is read-only or immutable) (EPERM). Point DATA_DIR at a folder this process can create and write, or set DATABASE_URL.",
    );
    expect(new DataDirUnusableError("/d", { name: "ErrnoError", errno: 69 }).message).toContain("it is on a read-only file system (EROFS)");
    expect(new DataDirUnusableError("/d", new Error("PGlite failed to initialize properly")).message).toContain(
      "the database in it could not be opened (is every file in it readable and writable by this process",
    );
    expect(error.cause).toBe(errnoError);
  });
});
