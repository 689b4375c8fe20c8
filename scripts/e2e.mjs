#!/usr/bin/env node
// `npm run test:e2e`: find (or, as root on Debian, install) the system Chromium, then run
// `npx playwright test` with CHROMIUM_PATH exported. Extra arguments go to Playwright:
//   npm run test:e2e -- e2e/home.spec.ts --headed
// Playwright never downloads a browser here: see playwright.config.ts.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium, INSTALL_HINT, isExecutableFile, isHeadlessShell } from "./chromium.mjs";
import { findNginx, NGINX_INSTALL_HINT } from "./nginx.mjs";
import { findTestDatabase } from "./test-database.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (message) => console.error(`[e2e] ${message}`);

function onPath(command, env) {
  return (env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .map((dir) => path.join(dir, command))
    .find((file) => isExecutableFile(file));
}

function canAptInstall(env) {
  return process.getuid?.() === 0 && existsSync("/etc/debian_version") && Boolean(onPath("apt-get", env));
}

/** Runs a command with no standard input and its output streamed; whether it succeeded (a failure is said). */
function runOrWarn(command, args, env) {
  log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"], env });
  if (result.status === 0) return true;
  log(`\`${command} ${args.join(" ")}\` failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}).`);
  return false;
}

/** As {@link runOrWarn}, but a failure ends the script. */
function runOrExit(command, args, env) {
  if (runOrWarn(command, args, env)) return true;
  log(INSTALL_HINT);
  process.exit(1);
}

/**
 * The browser for the tests: Chromium's headless shell (Playwright's own choice for headless runs,
 * and the cheaper one: the browser tests' CPU is mostly Chromium's), installed from Debian's
 * packages as root when missing; a full Chromium when that is all there is, or for a headed run.
 */
function locateChromium(env, headed) {
  const options = { headlessShell: !headed };
  let found = findChromium(env, isExecutableFile, options);
  const wanted = headed ? "chromium" : "chromium-headless-shell";
  // A CHROMIUM_PATH pointing nowhere is a mistake to fix, not a reason to install something else.
  const mayInstall = !env.CHROMIUM_PATH?.trim() && canAptInstall(env);
  if (mayInstall && (!found.path || (!headed && !isHeadlessShell(found.path)))) {
    log(
      `${found.path ? `Only ${found.path} is here.` : found.error} Installing Debian's ${wanted} package with apt-get (running as root)...`,
    );
    const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
    // Without any browser a failed install ends the run; with a full Chromium, the tests use it.
    const run = found.path ? runOrWarn : runOrExit;
    if (run("apt-get", ["update"], aptEnv) && run("apt-get", ["install", "-y", wanted], aptEnv)) {
      found = findChromium(env, isExecutableFile, options);
      if (found.path) log(`Installed ${wanted}: ${found.path}.`);
    }
  }
  if (found.path) return found.path;
  log(found.error);
  log(INSTALL_HINT);
  process.exit(1);
}

/**
 * nginx for the production recipe's test (e2e/production-recipe.spec.ts): found, or installed from
 * Debian's packages as root. Without it that one spec fails, saying what to install; the others run.
 */
function locateNginx(env) {
  const found = findNginx(env);
  if (found) return found;
  if (canAptInstall(env)) {
    log("nginx not found. Installing Debian's nginx package with apt-get (running as root)...");
    const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
    if (runOrWarn("apt-get", ["update"], aptEnv) && runOrWarn("apt-get", ["install", "-y", "nginx"], aptEnv)) return findNginx(env);
  }
  log(`nginx not found: e2e/production-recipe.spec.ts will fail. ${NGINX_INSTALL_HINT}`);
  return null;
}

const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1", NEXT_TELEMETRY_DISABLED: "1" };
const args = process.argv.slice(2);
const chromium = locateChromium(
  env,
  args.some((arg) => ["--headed", "--debug", "--ui"].includes(arg)),
);
const version = spawnSync(chromium, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 15_000 });
log(`Chromium: ${chromium}${version.status === 0 ? ` (${version.stdout.trim()})` : ""}`);
env.CHROMIUM_PATH = chromium;

const nginx = locateNginx(env);
if (nginx) log(`nginx: ${nginx}`);

// The specs on PostgreSQL (several instances, an outage) use the local server when it answers.
const database = await findTestDatabase(env);
if (database.url !== undefined) env.TEST_DATABASE_URL = database.url;
log(`PostgreSQL: ${database.url ?? "none"} (${database.reason})`);

// A throwaway data directory for the app under test, removed afterwards (when we made it).
let dataDir = env.E2E_DATA_DIR;
const ownDataDir = !dataDir;
if (ownDataDir) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-e2e-"));
  env.E2E_DATA_DIR = dataDir;
}
log(`App data directory: ${dataDir}`);

/**
 * `npm test` (scripts/test.mjs) has built the app and runs every spec: the staff's specs then run on
 * a second suite app of their own (E2E_LANE in playwright.config.ts), E2E_PORT + 100 with its own
 * data, beside the others. Each lane's lines are prefixed with its name. Otherwise, one run.
 */
const split = env.E2E_SPLIT === "1" && env.E2E_PREBUILT === "1" && args.length === 0;
const port = Number(env.E2E_PORT ?? 3100);
const runs = split
  ? [
      { name: "customer", env: { ...env, E2E_LANE: "customer" } },
      { name: "staff", env: { ...env, E2E_LANE: "staff", E2E_PORT: String(port + 100), E2E_DATA_DIR: path.join(dataDir, "staff") } },
    ]
  : [{ name: "", env }];

/** Copies a stream line by line, each line prefixed, so that two runs' lines never mix. */
function prefixLines(from, to, prefix) {
  let rest = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    if (lines.length > 0) to.write(lines.map((line) => `${prefix}${line}\n`).join(""));
  });
  from.on("end", () => rest && to.write(`${prefix}${rest}\n`));
}

const children = runs.map((run) => {
  if (!run.name) return spawn("npx", ["playwright", "test", ...args], { cwd: root, env: run.env, stdio: "inherit" });
  mkdirSync(run.env.E2E_DATA_DIR, { recursive: true });
  const child = spawn("npx", ["playwright", "test"], { cwd: root, env: run.env, stdio: ["ignore", "pipe", "pipe"] });
  prefixLines(child.stdout, process.stdout, `[${run.name}] `);
  prefixLines(child.stderr, process.stderr, `[${run.name}] `);
  return child;
});
// Ctrl-C reaches Playwright directly (same process group): just wait for it to wind down.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => children.forEach((child) => child.kill(signal)));

const codes = await Promise.all(
  children.map(
    (child, index) =>
      new Promise((resolve) => {
        const name = runs[index].name || "Playwright";
        child.on("error", (error) => {
          log(`Could not start ${name}: ${error.message}`);
          resolve(1);
        });
        child.on("close", (code, signal) => {
          if (signal) log(`${name} ended by ${signal}.`);
          resolve(code ?? 128 + (os.constants.signals[signal] ?? 0));
        });
      }),
  ),
);
if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
process.exit(codes.find((code) => code !== 0) ?? 0);
