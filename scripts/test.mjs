#!/usr/bin/env node
// `npm test`: every check, with the machine kept busy. First, at once: the format, the lint and the
// type check (one core each) beside the unit tests (which mostly wait: PGlite, HTTP servers,
// timers); once the lint and the type check have read the sources, the browser tests' build starts
// beside the unit tests still running. Then, if all of that passed, the browser tests on that build
// (scripts/e2e.mjs). Each step's output is printed whole when it ends (the unit tests' as they
// run), and a table at the end gives each step's time and how busy the machine's cores were.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { suiteAppEnv } from "./e2e-suite-app.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const log = (message) => process.stdout.write(`[test] ${message}\n`);

/** Total and idle CPU time of the machine so far (Linux), to tell how busy its cores were. */
function cpuTimes() {
  if (!existsSync("/proc/stat")) return undefined;
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the time no core worked.
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { total, idle: fields[3] + fields[4] };
}

function busyShare(from, to) {
  if (!from || !to || to.total === from.total) return "";
  return `${Math.round(100 * (1 - (to.idle - from.idle) / (to.total - from.total)) || 0)} % of ${os.availableParallelism()} cores busy`;
}

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(128 + os.constants.signals[signal]);
  });
}

/**
 * Runs one step; resolves with whether it passed and its time. `live` streams its output as it
 * comes; otherwise the output is printed whole at the end, so steps running together never mix lines.
 */
function step(name, command, args, { env = process.env, live = false } = {}) {
  const started = Date.now();
  log(`${name}: started (${[command, ...args].join(" ")})`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    const chunks = [];
    const take = (target) => (chunk) => (live ? target.write(chunk) : chunks.push(chunk));
    child.stdout.on("data", take(process.stdout));
    child.stderr.on("data", take(process.stderr));
    const done = (ok, how) => {
      children.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      if (chunks.length > 0) process.stdout.write(`\n──── ${name} ────\n${Buffer.concat(chunks).toString()}\n`);
      log(`${name}: ${ok ? "passed" : `FAILED (${how})`} in ${seconds} s`);
      resolve({ name, ok, seconds });
    };
    child.on("error", (error) => done(false, error.message));
    child.on("close", (code, signal) => done(code === 0, signal ?? `exit ${code}`));
  });
}

const npm = (script) => ["npm", ["run", "--silent", script]];
const results = [];
const stages = [];

// The browser tests' app keeps its data in a throwaway folder, and its metrics behind a throwaway
// token: made here, so that its build and its start have the same settings.
const e2eEnv = {
  ...process.env,
  E2E_DATA_DIR: process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "travel-checkout-e2e-")),
  E2E_METRICS_TOKEN: process.env.E2E_METRICS_TOKEN ?? `e2e-metrics-${crypto.randomUUID()}`,
};
const madeDataDir = !process.env.E2E_DATA_DIR;

let cpu = cpuTimes();
let stageStarted = Date.now();
const unit = step("unit tests", ...npm("test:unit"), { live: true });
const [format, lint, types] = await Promise.all([
  step("format", ...npm("format:check")),
  step("lint", ...npm("lint")),
  step("types", ...npm("typecheck")),
]);
results.push(format, lint, types);
// `next build` rewrites next-env.d.ts and writes .next/types, which the lint and the type check
// read: it starts once they are done.
const build =
  format.ok && lint.ok && types.ok
    ? step("browser tests' build", ...npm("build"), { env: { ...e2eEnv, ...suiteAppEnv(e2eEnv) } })
    : Promise.resolve({ name: "browser tests' build", ok: false, seconds: 0, skipped: true });
results.push(await unit, await build);
let now = cpuTimes();
stages.push(`checks, unit tests and build: ${Math.round((Date.now() - stageStarted) / 1000)} s, ${busyShare(cpu, now)}`);

if (results.every((result) => result.ok)) {
  cpu = now;
  stageStarted = Date.now();
  results.push(
    await step("browser tests", "node", ["scripts/e2e.mjs"], { env: { ...e2eEnv, E2E_PREBUILT: "1", E2E_SPLIT: "1" }, live: true }),
  );
  now = cpuTimes();
  stages.push(`browser tests: ${Math.round((Date.now() - stageStarted) / 1000)} s, ${busyShare(cpu, now)}`);
} else {
  log("browser tests: not run, as a step before them failed");
}
if (madeDataDir) rmSync(e2eEnv.E2E_DATA_DIR, { recursive: true, force: true });

process.stdout.write("\nnpm test:\n");
for (const result of results) {
  const outcome = result.skipped ? "not run" : result.ok ? "passed" : "FAILED";
  process.stdout.write(`  ${result.name.padEnd(22)} ${outcome.padEnd(8)} ${String(result.seconds).padStart(5)} s\n`);
}
for (const stage of stages) process.stdout.write(`  ${stage}\n`);
process.exit(results.every((result) => result.ok) ? 0 : 1);
