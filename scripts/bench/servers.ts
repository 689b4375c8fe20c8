import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { procStatCpuMs } from "./journey-stats";

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

export const SANDBOX = `http://127.0.0.1:${SANDBOX_PORT}`;

/** The sandbox agency's published key (docs/qa/README.md). */
export const SANDBOX_KEY = "fk_test_sandbox_agency_101";

export const APP = `http://localhost:${PORT}`;

export const EMPTY = `http://localhost:${EMPTY_PORT}`;

export function run(command: string, args: string[], cwd = ROOT): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/**
 * The app's build and the empty page's, before a bench. BENCH_SKIP_BUILD=1 keeps the app's build
 * (the one being measured); the empty page is only the yardstick, built once (a fresh clone has
 * none, and its server would never come up).
 */
export function buildAppAndFloor(): void {
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    say("Building the app and the empty page…");
    run(process.execPath, [NEXT_BIN, "build"]);
    run(process.execPath, ["scripts/build-server.mjs"]);
    run(process.execPath, [NEXT_BIN, "build", EMPTY_APP]);
  } else if (!existsSync(path.join(EMPTY_APP, ".next", "BUILD_ID"))) {
    say("Building the empty page (BENCH_SKIP_BUILD keeps the app's build)…");
    run(process.execPath, [NEXT_BIN, "build", EMPTY_APP]);
  }
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

/** CPU time (user + system) of a process and its children so far, in ms. */
export function cpuMs(pid: number): number {
  return sumOverTree(pid, (p) => procStatCpuMs(readFileSync(`/proc/${p}/stat`, "utf8")));
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

/** BENCH_BASELINE_REV=<rev>[,<rev>…]: each revision's build (built once, kept under .next-bench/). */
export function baselineBuilds(): { dir: string; commit: string }[] {
  return (process.env.BENCH_BASELINE_REV ?? "")
    .split(",")
    .map((rev) => rev.trim())
    .filter(Boolean)
    .map(baselineBuild);
}

/**
 * The partner API sandbox in a server of its own, on its own PGlite folder: this build's app
 * serving it, or with `standalone` the sandbox alone (scripts/sandbox.ts, as `npm run sandbox`),
 * which redirects the customer back to any partner origin, not only to its own APP_URL's.
 */
export function startSandbox(standalone = false): { child: ChildProcess; dataDir: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
  const args = standalone
    ? ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "scripts/sandbox.ts", "--port", String(SANDBOX_PORT)]
    : appServerArgs(ROOT);
  return { child: start(args, { PORT: String(SANDBOX_PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn" }), dataDir };
}

/** An app server's environment: its port, a fresh data folder, the sandbox as its financing API, and `extra` (DATABASE_URL, limits…). */
export function appEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-app-")),
    LOG_LEVEL: "warn",
    // No load balancer here: stopped at once, its port free for the next run.
    SHUTDOWN_DRAIN_DELAY_MS: "0",
    FINANCING_API_BASE_URL: `${SANDBOX}/sandbox/v1`,
    FINANCING_API_KEY: SANDBOX_KEY,
    ...extra,
  };
}

/**
 * `stop` when the bench ends, however it ends: at its exit and on SIGINT or SIGTERM (which end
 * Node without its "exit" event: without this, a bench stopped with Ctrl-C or `kill` left its
 * servers running on their ports). Returns the signal handler, for a phase that takes Ctrl-C itself.
 */
export function stopOnExit(stop: () => void): (signal: NodeJS.Signals) => void {
  process.on("exit", stop);
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === "SIGINT" ? 130 : 143);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return onSignal;
}

/** The machine the figures are of: cores, CPU model, Node, load average. */
export function machineLine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  return `Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}, load average ${load}`;
}

/** Waits until a child has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
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
