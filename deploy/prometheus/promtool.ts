/**
 * Where the rules' tests (deploy/prometheus/rules.test.ts) find `promtool`, Prometheus's rule checker:
 * PROMTOOL_PATH, else on PATH, else the copy taken earlier from Debian's `prometheus` package, else, on
 * Debian, taken now: `apt-get download prometheus` and only `usr/bin/promtool` extracted from it into
 * node_modules/.cache/promtool. Installing the package instead would run its maintainer scripts, which
 * start a Prometheus server (and recommend node-exporter, another one) and add a system user: a
 * test must leave nothing running. The extraction runs no script, needs no root when the package lists
 * are there, and leaves the system as it was. Elsewhere the tests stop, saying what to install.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

type Env = Record<string, string | undefined>;

export const PROMTOOL_CACHE = path.join(process.cwd(), "node_modules/.cache/promtool");
const CACHED = path.join(PROMTOOL_CACHE, "usr/bin/promtool");

export const PROMTOOL_INSTALL_HINT =
  "promtool not found. It comes with Prometheus: on Debian or Ubuntu, `apt-get download prometheus` and " +
  "`dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x ./usr/bin/promtool` (the tests do this themselves where " +
  "apt-get is), or Prometheus's release archive from prometheus.io; then put promtool on PATH or set PROMTOOL_PATH.";

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** PROMTOOL_PATH (an error if nothing is there), else promtool on PATH, else the extracted copy; null when none. */
export function findPromtool(env: Env, exists: (file: string) => boolean = isExecutableFile): string | null {
  const explicit = env.PROMTOOL_PATH?.trim();
  if (explicit) {
    if (exists(explicit)) return explicit;
    throw new Error(`PROMTOOL_PATH is set to "${explicit}", but no executable file is there.`);
  }
  const dirs = (env.PATH ?? "").split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  return [...dirs.map((dir) => path.join(dir, "promtool")), CACHED].find((file) => exists(file)) ?? null;
}

function run(command: string, args: string[], cwd: string): boolean {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

/** promtool extracted from Debian's package into the cache; null where apt-get is not, or it failed. */
function extractFromDebianPackage(env: Env): string | null {
  if (!findOnPath("apt-get", env) || !findOnPath("dpkg-deb", env)) return null;
  mkdirSync(PROMTOOL_CACHE, { recursive: true });
  const download = () => run("apt-get", ["download", "prometheus"], PROMTOOL_CACHE);
  // No package lists yet (a fresh container): read them first, which only root may.
  if (!download() && !(process.getuid?.() === 0 && run("apt-get", ["update"], PROMTOOL_CACHE) && download())) return null;
  const deb = readdirSync(PROMTOOL_CACHE).find((name) => /^prometheus_.*\.deb$/.test(name));
  if (!deb) return null;
  const extracted = run("sh", ["-c", `dpkg-deb --fsys-tarfile "$1" | tar -x ./usr/bin/promtool`, "sh", deb], PROMTOOL_CACHE);
  rmSync(path.join(PROMTOOL_CACHE, deb), { force: true });
  return extracted && isExecutableFile(CACHED) ? CACHED : null;
}

function findOnPath(name: string, env: Env): string | undefined {
  return (env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .find(isExecutableFile);
}

/** promtool's path: found, or taken from Debian's package; else an error saying what to install. */
export function promtool(env: Env = process.env): string {
  const found = findPromtool(env) ?? extractFromDebianPackage(env);
  if (!found) throw new Error(PROMTOOL_INSTALL_HINT);
  return found;
}
