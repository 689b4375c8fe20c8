import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

/*
 * The bench's servers and processes (scripts/bench-checkout.ts): where they listen, how they are
 * built and started, and their memory and CPU read from /proc.
 */

export const say = (line: string) => process.stdout.write(`${line}\n`);

export const ROOT = process.cwd();

export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** The app's server entry, as `npm run serve` starts it. */
export const SERVER_ENTRY = ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "server.ts"];

/** The server entry as the build compiles it (scripts/build-server.mjs), where a revision has it. */
export const COMPILED_SERVER_ENTRY = [".next/server-entry.mjs"];

export const EMPTY_APP = path.join(ROOT, "scripts/bench/empty-app");

export const PORT = Number(process.env.BENCH_PORT ?? 3540);

export const EMPTY_PORT = PORT + 1;

/** The partner API (the sandbox) in its own server, as in production: the app's CPU and memory are the app's own. */
export const SANDBOX_PORT = PORT + 2;

export const SANDBOX = `http://localhost:${SANDBOX_PORT}`;

export const APP = `http://localhost:${PORT}`;

export const EMPTY = `http://localhost:${EMPTY_PORT}`;

export function run(command: string, args: string[], cwd = ROOT): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/** The app's server in `dir`: its entry, or `next start` for a revision from before it had one. */
export function appServerArgs(dir: string): string[] {
  if (existsSync(path.join(dir, "scripts/build-server.mjs"))) return COMPILED_SERVER_ENTRY;
  return existsSync(path.join(dir, "server.ts")) ? SERVER_ENTRY : [NEXT_BIN, "start"];
}

export function start(args: string[], env: Record<string, string>, nodeArgs: string[] = [], cwd = ROOT): ChildProcess {
  // Only the app gets the database URL (given in `env`): the sandbox's server keeps its own PGlite.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd,
    env: { ...inherited, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: "ignore",
  });
  return child;
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

/** A process and its descendants (Linux /proc), for their memory and CPU time together. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // gone
    }
  }
  return pids;
}

/** The sum of `read` over a process and its descendants; one that has gone counts nothing. */
export function sumOverTree(pid: number, read: (pid: number) => number): number {
  let sum = 0;
  for (const p of processTree(pid)) {
    try {
      sum += read(p);
    } catch {
      // gone
    }
  }
  return sum;
}

/** Resident memory of a process and its children, in MB. */
export function rssMb(pid: number): number {
  return sumOverTree(pid, (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0)) / 1024;
}

/** CPU time (user + system) of a process and its children so far, in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const ticks = sumOverTree(pid, (p) => {
    const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  });
  return ticks * 10;
}

/** BENCH_BASELINE_REV: that revision's tree under .next-bench/<commit>, built (once). */
export function baselineBuild(rev: string): { dir: string; commit: string } {
  const resolved = spawnSync("git", ["rev-parse", "--verify", `${rev}^{commit}`], { cwd: ROOT, encoding: "utf8" });
  if (resolved.status !== 0) throw new Error(`BENCH_BASELINE_REV: ${rev} is not a commit here`);
  const commit = resolved.stdout.trim().slice(0, 12);
  // Inside the project (ignored by git, like .next-*): the build resolves this checkout's
  // node_modules, which Next accepts only within the project's root.
  const dir = path.join(ROOT, ".next-bench", commit);
  if (!existsSync(path.join(dir, ".next", "BUILD_ID"))) {
    say(`Building ${rev} (${commit}) in ${path.relative(ROOT, dir)}…`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync("git", ["archive", "--format=tar", commit], { cwd: ROOT, maxBuffer: 1 << 30 });
    if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
    const untar = spawnSync("tar", ["-x", "-C", dir], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`extracting ${commit} failed`);
    // Its lockfile would only make Next warn that it found two: the root is this checkout.
    rmSync(path.join(dir, "package-lock.json"), { force: true });
    run(process.execPath, [NEXT_BIN, "build"], dir);
    // A revision whose server entry the build compiles: compiled as its `npm run build` would.
    if (existsSync(path.join(dir, "scripts/build-server.mjs"))) run(process.execPath, ["scripts/build-server.mjs"], dir);
  }
  return { dir, commit };
}

/** BENCH_COMPARE_ENV="A=1 B=2": the variables of the second server of this build. */
export function compareEnv(): Record<string, string> | undefined {
  const spec = process.env.BENCH_COMPARE_ENV?.trim();
  if (!spec) return undefined;
  return Object.fromEntries(
    spec.split(/\s+/).map((pair) => {
      const at = pair.indexOf("=");
      if (at <= 0) throw new Error(`BENCH_COMPARE_ENV: "${pair}" is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** One server of the app under measure: this build, this build with other settings, or an earlier revision's. */
export interface AppServer {
  name: string;
  base: string;
  child: ChildProcess;
  pages: Page[];
  /** The session on the offers page, for the latency measure. */
  offersId: string;
}

/** A page measured: its name in the report, its URL. */
export type Page = [name: string, url: string];
