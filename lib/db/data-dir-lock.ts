import "server-only";
import { accessSync, closeSync, constants, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { createPglite } from "./pglite-parsers";

/*
 * PGlite is one process's database: two processes on one data folder each keep their own copy in
 * memory and write over each other's files, and whatever one of them wrote is lost (an audit saw a
 * partner given 201 for sessions that did not exist after a restart). PGlite itself takes no lock,
 * so the folder gets one here: a file beside it (`pglite` → `pglite.lock`) naming the process that
 * holds it, created exclusively.
 *
 * A lock left by a process that is gone (killed, crashed) is taken over: its process no longer
 * exists, or it is this very process's id in a later life (a container restarted runs the same
 * command under the same id) without this process having taken it.
 */

/** The lock of a data folder: beside it, not in it (the folder is PostgreSQL's own). */
export function lockPathOf(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

/** The folders this process holds, so that a second open in the same process is refused too. */
const held = new Set<string>();

export class DataDirInUseError extends Error {
  constructor(lockPath: string, pid: number | undefined) {
    super(
      `DATA_DIR is in use by another process${pid === undefined ? "" : ` (pid ${pid})`}: only one process may open the embedded database ` +
        `(run several instances on PostgreSQL, DATABASE_URL). If no such process runs, delete ${lockPath}.`,
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * The data folder cannot be used (a file where a folder should be, a read-only disk or mount, no
 * permission): the start-up refusal says so, naming DATA_DIR, the folder and the cause in plain
 * words. PGlite's own errors said nothing (`PGlite failed to initialize properly`), or were not even
 * Errors (its file system's `{ name: "ErrnoError", errno: 63 }`, logged as `{"type":"object"}`).
 */
export class DataDirUnusableError extends Error {
  readonly folder: string;
  /** The system's error code (EROFS, EACCES…), when there is one. */
  readonly reason: string | undefined;

  constructor(folder: string, cause: unknown) {
    const reason = errnoName(cause);
    super(
      `DATA_DIR: the embedded database's folder ${folder} cannot be used: ${plainCause(reason)}. ` +
        "Point DATA_DIR at a folder this process can create and write, or set DATABASE_URL.",
      { cause },
    );
    this.name = "DataDirUnusableError";
    this.folder = folder;
    this.reason = reason;
  }
}

const PLAIN_CAUSES: Record<string, string> = {
  EACCES: "permission denied (this process may not write there)",
  EPERM: "the operation is not permitted (the folder or a file in it is read-only or immutable)",
  EROFS: "it is on a read-only file system",
  // A recursive mkdir on a read-only disk says ENOENT, not EROFS.
  ENOENT: "it could not be created (a read-only disk, or a part of the path that cannot be made)",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "it exists and is a file, not a folder",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
};

// PGlite's file system (Emscripten's) throws `{ name: "ErrnoError", errno }`, numbered as in WASI.
const WASI_ERRNO: Record<number, string> = { 2: "EACCES", 20: "EEXIST", 51: "ENOSPC", 54: "ENOTDIR", 63: "EPERM", 69: "EROFS" };

function errnoName(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, errno, name } = error as { code?: unknown; errno?: unknown; name?: unknown };
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  if (name === "ErrnoError" && typeof errno === "number") return WASI_ERRNO[errno] ?? `errno ${errno}`;
  return undefined;
}

function plainCause(reason: string | undefined): string {
  const plain = reason === undefined ? undefined : PLAIN_CAUSES[reason];
  if (plain !== undefined) return `${plain} (${reason})`;
  if (reason !== undefined) return `the system refused it (${reason})`;
  // PGlite's own failure ("Aborted()", "failed to initialize properly") says nothing more.
  return "the database in it could not be opened (is every file in it readable and writable by this process, and made by this version?)";
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function create(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, "wx", 0o600);
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Takes the data folder (which exists) for this process; throws DataDirInUseError when another
 * live process, or this one, holds it. Returns the release, which deletes the lock if it is still ours.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = lockPathOf(dataDir);
  if (held.has(lockPath)) throw new DataDirInUseError(lockPath, process.pid);
  if (!create(lockPath)) {
    const pid = holderOf(lockPath);
    // A file without a pid is being written by its creator this instant, or was cut short: busy.
    const stale = pid !== undefined && (pid === process.pid || !isAlive(pid));
    if (!stale) throw new DataDirInUseError(lockPath, pid);
    unlinkSync(lockPath);
    // Another process taking over the same stale lock at this instant wins the exclusive create.
    if (!create(lockPath)) throw new DataDirInUseError(lockPath, holderOf(lockPath));
  }
  held.add(lockPath);
  return () => {
    held.delete(lockPath);
    if (holderOf(lockPath) === process.pid) unlinkSync(lockPath);
  };
}

/**
 * A PGlite client on this data folder (`memory://…`: in memory, unlocked), the folder created and
 * locked; `close` closes the client and releases the lock. The app's database and the standalone
 * sandbox's open theirs through it.
 */
export async function openLockedPglite(dataDir: string): Promise<{ client: PGlite; close: () => Promise<void> }> {
  if (dataDir.startsWith("memory://")) {
    const client = await createPglite(dataDir);
    return { client, close: () => client.close() };
  }
  const folder = path.resolve(dataDir);
  let unlock: () => void;
  try {
    mkdirSync(folder, { recursive: true });
    // Read-only (a mount, an immutable folder) shows here, even for root; PGlite would fail later,
    // saying nothing of why.
    accessSync(folder, constants.R_OK | constants.W_OK);
    unlock = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
    throw new DataDirUnusableError(folder, error);
  }
  try {
    const client = await createPglite(folder);
    const close = async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    };
    return { client, close };
  } catch (error) {
    unlock();
    throw new DataDirUnusableError(folder, error);
  }
}
