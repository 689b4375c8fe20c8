/**
 * `npm run bench:checkout`: what the customer checkout costs, measured side by side in one run
 * (docs/contributors/performance.md). Not part of `npm test`: timings depend on the machine.
 *
 * 1. Builds the app and an empty dynamic App Router page (scripts/bench/empty-app, same Next).
 * 2. Starts both (the app with its server entry, server.ts; the empty page with `next start`), the
 *    app on its own data folder (PGlite, or PostgreSQL when DATABASE_URL is set), and injects
 *    150 ms of latency on the sandbox's GET /financing/{id}. With BENCH_COMPARE_ENV and
 *    BENCH_BASELINE_REV, other servers of the app beside it (below), each with its own sessions.
 * 3. Latency: the offers page against its one upstream call, the bare GET /financing/{id}
 *    (p50/p90, sequential requests), and the page's own work (the difference).
 * 4. Size: each checkout page's HTML and its first-load JavaScript (gzip), as e2e/budget.spec.ts.
 * 5. Lighthouse (mobile preset, system Chromium): performance and accessibility of each page.
 * 6. Load: autocannon, 10 connections, on the demo shop and each checkout page, after a warm-up,
 *    each in slices alternating with the empty page (upstream latency removed: this measures our
 *    cost per request); requests/s and CPU per request as ratios to the empty page's beside it,
 *    and each server's resident memory (RSS) after the runs. Every app server compared takes its
 *    slice in every round, so all are measured at the same moments of the machine.
 *
 * Options (environment): BENCH_PORT (default 3540; the empty page uses +1), BENCH_SKIP_BUILD=1,
 * BENCH_SECONDS (load duration per page, default 10), BENCH_ROUNDS (the slices it is cut in,
 * default 5), BENCH_REQUESTS (sequential samples, default 60), BENCH_LIGHTHOUSE=0 to skip
 * Lighthouse, CHROMIUM_PATH (else the first Chromium scripts/chromium.mjs finds; none: the bench
 * stops at once, saying so), BENCH_PHASES (startup,latency,size,lighthouse,load: which measures to take;
 * hold: keep the servers up until Ctrl-C), BENCH_LOAD_PAGES (e.g. "details,offers": which pages
 * the load phase measures besides the empty page), BENCH_CPU_PROF=<dir> (the app runs under
 * `node --cpu-prof` and writes its profile there when it stops).
 *
 * Comparisons in the same run (latency and load; each server on its own port and data folder):
 * BENCH_COMPARE_ENV="NAME=value …": a second server of this build with those variables set (e.g.
 * PAGE_PRELOAD=false); BENCH_BASELINE_REV=<git rev>[,<git rev>…]: each revision, extracted under
 * `.next-bench/<rev>` (inside the project, so that it resolves this checkout's node_modules; kept
 * for the next run, `rm -rf .next-bench` to remove it) and built there, its server alongside.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { findChromium, INSTALL_HINT, LAUNCH_ARGS } from "./chromium.mjs";
import { tripDayFromToday } from "../lib/checkout/session/trip-dates";

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
/** The app's server entry, as `npm run serve` starts it. */
const SERVER_ENTRY = ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "server.ts"];
/** The server entry as the build compiles it (scripts/build-server.mjs), where a revision has it. */
const COMPILED_SERVER_ENTRY = [".next/server-entry.mjs"];
const EMPTY_APP = path.join(ROOT, "scripts/bench/empty-app");
const PORT = Number(process.env.BENCH_PORT ?? 3540);
const EMPTY_PORT = PORT + 1;
/** The partner API (the sandbox) in its own server, as in production: the app's CPU and memory are the app's own. */
const SANDBOX_PORT = PORT + 2;
const SANDBOX = `http://localhost:${SANDBOX_PORT}`;
const APP = `http://localhost:${PORT}`;
const EMPTY = `http://localhost:${EMPTY_PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const SAMPLES = Number(process.env.BENCH_REQUESTS ?? 60);
/** `--database-url=postgres://…` (or DATABASE_URL): the app on PostgreSQL instead of its own PGlite. */
const DATABASE_URL =
  process.argv.find((arg) => arg.startsWith("--database-url="))?.slice("--database-url=".length) || process.env.DATABASE_URL || undefined;
const UPSTREAM_LATENCY_MS = 150;
/** BENCH_PHASES: which measures to take (default all), e.g. `load` alone under a profiler. */
const PHASES = new Set((process.env.BENCH_PHASES ?? "startup,latency,size,lighthouse,load").split(",").map((p) => p.trim()));
const LIGHTHOUSE = PHASES.has("lighthouse") && process.env.BENCH_LIGHTHOUSE !== "0";
const chromium = findChromium(process.env);

/** Published sandbox credentials (docs/qa/README.md): the demo partner's secret, the sandbox agency's key. */
const PARTNER_SECRET = "demo_partner_secret_sandbox_only";
const SANDBOX_KEY = "fk_test_sandbox_agency_101";

const say = (line: string) => process.stdout.write(`${line}\n`);

/** One server of the app under measure: this build, this build with other settings, or an earlier revision's. */
interface AppServer {
  name: string;
  base: string;
  child: ChildProcess;
  pages: Page[];
  /** The session on the offers page, for the latency measure. */
  offersId: string;
}

function run(command: string, args: string[], cwd = ROOT): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/** The app's server in `dir`: its entry, or `next start` for a revision from before it had one. */
function appServerArgs(dir: string): string[] {
  if (existsSync(path.join(dir, "scripts/build-server.mjs"))) return COMPILED_SERVER_ENTRY;
  return existsSync(path.join(dir, "server.ts")) ? SERVER_ENTRY : [NEXT_BIN, "start"];
}

function start(args: string[], env: Record<string, string>, nodeArgs: string[] = [], cwd = ROOT): ChildProcess {
  // Only the app gets the database URL (given in `env`): the sandbox's server keeps its own PGlite.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd,
    env: { ...inherited, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: "ignore",
  });
  return child;
}

async function waitFor(url: string): Promise<void> {
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
function processTree(pid: number): number[] {
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
function sumOverTree(pid: number, read: (pid: number) => number): number {
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
function rssMb(pid: number): number {
  return sumOverTree(pid, (p) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0)) / 1024;
}

/** CPU time (user + system) of a process and its children so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const ticks = sumOverTree(pid, (p) => {
    const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  });
  return ticks * 10;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(url: string, init?: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

// ---------------------------------------------------------------------------------------------
// The sessions the pages are measured on

function sessionBody(reference: string, base: string) {
  return {
    booking: {
      bookingReference: reference,
      packageName: "Lisboa, 4 noches",
      travellers: 2,
      totalPrice: { amount: 1234.5, currency: "EUR" },
      flights: [{ origin: "MAD", destination: "LIS", departureDate: tripDayFromToday(60), returnDate: tripDayFromToday(64) }],
    },
    customer: { firstName: "Ana", lastName: "García López" },
    returnUrl: `${base}/`,
    locale: "es",
  };
}

async function openSession(base: string, reference: string): Promise<string> {
  const response = await fetch(`${base}/api/checkout-sessions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${PARTNER_SECRET}`, "Content-Type": "application/json" },
    body: JSON.stringify(sessionBody(reference, base)),
  });
  if (response.status !== 201) throw new Error(`opening a session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** The hidden fields of the page's n-th form (Next's action id and bound state among them), as a browser without JavaScript sends them. */
function hiddenFields(html: string, formIndex = 0): [string, string][] {
  const form = html.split("<form").slice(1)[formIndex]?.split("</form>")[0] ?? "";
  const decode = (value: string) =>
    value.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return [...form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)].map((m) => [decode(m[1]!), decode(m[2] ?? "")]);
}

async function postForm(base: string, pagePath: string, fields: [string, string][]): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return fetch(`${base}${pagePath}`, { method: "POST", body, redirect: "manual", headers: { Origin: base } });
}

function inYears(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString().slice(0, 10);
}

/** Sends the details form (without JavaScript): the operation is created, the offers page is next. */
async function sendDetails(base: string, sessionId: string): Promise<void> {
  const html = await (await fetch(`${base}/checkout/${sessionId}`)).text();
  const formIndex = html.split("<form").findIndex((part, i) => i > 0 && part.includes('name="documentId"')) - 1;
  const fields: [string, string][] = [
    ...hiddenFields(html, formIndex).filter(([name]) => name.startsWith("$") || name === "sessionId"),
    ["firstName", "Ana"],
    ["lastName", "García López"],
    ["email", "ana@example.com"],
    ["prefix", "+34"],
    ["phone", "612345678"],
    ["documentType", "DNI"],
    ["documentId", "12345678Z"],
    ["documentValidityDate", inYears(5)],
    ["gender", "FEMALE"],
    ["birthDate", "1990-07-04"],
    ["nationality", "ESP"],
    ["address", "Calle Mayor 1"],
    ["city", "Madrid"],
    ["postalCode", "28013"],
    ["countryCode", "ESP"],
  ];
  const response = await postForm(base, `/checkout/${sessionId}`, fields);
  const location = response.headers.get("location") ?? "";
  if (!location.includes("/offers")) throw new Error(`sending the details: ${response.status} ${location}`);
}

/** Chooses the first plan shown (without JavaScript): the session is then pending at the provider. */
async function choosePlan(base: string, sessionId: string): Promise<void> {
  const html = await (await fetch(`${base}/checkout/${sessionId}/offers`)).text();
  const formIndex = html.split("<form").findIndex((part, i) => i > 0 && part.includes('name="offerId"')) - 1;
  const response = await postForm(base, `/checkout/${sessionId}/offers`, hiddenFields(html, formIndex));
  if (response.status !== 303) throw new Error(`choosing a plan: ${response.status}`);
}

async function operationOf(sessionId: string, base = APP): Promise<string> {
  const response = await fetch(`${base}/api/checkout-sessions/${sessionId}`, { headers: { Authorization: `Bearer ${PARTNER_SECRET}` } });
  return ((await response.json()) as { operation: { id: string } }).operation.id;
}

async function setUpstreamLatency(ms: number): Promise<void> {
  const response = await fetch(`${SANDBOX}/sandbox/_control/faults`, {
    method: "PUT",
    headers: { "X-Service-API-Key": SANDBOX_KEY, "Content-Type": "application/json" },
    body: JSON.stringify(ms > 0 ? { route: "GET /financing/*", fault: "latency", latencyMs: ms } : { faults: [] }),
  });
  if (!response.ok) throw new Error(`setting the sandbox's latency: ${response.status}`);
}

// ---------------------------------------------------------------------------------------------
// Measures

async function firstLoadJs(url: string): Promise<{ html: number; htmlGzip: number; jsGzip: number }> {
  const html = await (await fetch(url)).text();
  // BENCH_DUMP_HTML=<dir>: each page's HTML as measured, to see what it is made of.
  if (process.env.BENCH_DUMP_HTML)
    writeFileSync(path.join(process.env.BENCH_DUMP_HTML, `${new URL(url).pathname.replaceAll("/", "_")}.html`), html);
  const sources = new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&")));
  let jsGzip = 0;
  for (const src of sources) jsGzip += gzipSync(Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer())).length;
  return { html: Buffer.byteLength(html), htmlGzip: gzipSync(html).length, jsGzip };
}

async function lighthouse(url: string): Promise<{ performance: number; accessibility: number; tbt: number; benchmarkIndex: number }> {
  const { launch } = await import("chrome-launcher");
  const { default: run } = await import("lighthouse");
  const chrome = await launch({ chromePath: chromium.path!, chromeFlags: ["--headless=new", ...LAUNCH_ARGS] });
  try {
    const result = await run(url, {
      port: chrome.port,
      onlyCategories: ["performance", "accessibility"],
      output: "json",
      logLevel: "error",
    });
    const lhr = result!.lhr;
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      tbt: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    };
  } finally {
    chrome.kill();
  }
}

/** Requests/s and latency of one autocannon run (the servers' CPU is read around it: `paired`). */
async function load(url: string, seconds: number) {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
    seconds,
  };
}

// ---------------------------------------------------------------------------------------------

/** BENCH_COMPARE_ENV="A=1 B=2": the variables of the second server of this build. */
function compareEnv(): Record<string, string> | undefined {
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

/** BENCH_BASELINE_REV: that revision's tree under .next-bench/<commit>, built (once). */
function baselineBuild(rev: string): { dir: string; commit: string } {
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

/** The sessions each app server's pages are measured on: one on the details form, one on the offers, one at the provider (status page). */
async function openPages(base: string): Promise<{ pages: Page[]; offersId: string }> {
  const stamp = Date.now().toString(36);
  const detailsId = await openSession(base, `BENCH-D-${stamp}`);
  const offersId = await openSession(base, `BENCH-O-${stamp}`);
  await sendDetails(base, offersId);
  const statusId = await openSession(base, `BENCH-S-${stamp}`);
  await sendDetails(base, statusId);
  await choosePlan(base, statusId);
  return {
    offersId,
    pages: [
      ["details", `${base}/checkout/${detailsId}`],
      ["offers", `${base}/checkout/${offersId}/offers`],
      ["status", `${base}/checkout/${statusId}/status`],
    ],
  };
}

async function main() {
  if (LIGHTHOUSE && chromium.path === null) {
    // Said before minutes of building, not after.
    process.stderr.write(`${chromium.error}\n${INSTALL_HINT}\nOr run without Lighthouse: BENCH_LIGHTHOUSE=0.\n`);
    process.exit(1);
  }
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    say("Building the app and the empty page…");
    run(process.execPath, [NEXT_BIN, "build"]);
    run(process.execPath, ["scripts/build-server.mjs"]);
    run(process.execPath, [NEXT_BIN, "build", EMPTY_APP]);
  } else if (!existsSync(path.join(EMPTY_APP, ".next", "BUILD_ID"))) {
    // BENCH_SKIP_BUILD skips the app's build (the one being measured); the empty page is only the
    // yardstick, built once (a fresh clone has none, and its server would never come up).
    say("Building the empty page (BENCH_SKIP_BUILD keeps the app's build)…");
    run(process.execPath, [NEXT_BIN, "build", EMPTY_APP]);
  }
  const variantEnv = compareEnv();
  const baselines = (process.env.BENCH_BASELINE_REV ?? "")
    .split(",")
    .map((rev) => rev.trim())
    .filter(Boolean)
    .map(baselineBuild);
  // BENCH_CPU_PROF=<dir>: the app's server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools, or summarise it with scripts/bench/cpu-profile-summary.ts).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const sandbox = start(appServerArgs(ROOT), {
    PORT: String(SANDBOX_PORT),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-")),
    LOG_LEVEL: "warn",
  });
  const appEnv = (port: number): Record<string, string> => ({
    PORT: String(port),
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bench-checkout-")),
    LOG_LEVEL: "warn",
    // No load balancer here: stopped at once, its port free for the next run.
    SHUTDOWN_DRAIN_DELAY_MS: "0",
    FINANCING_API_BASE_URL: `${SANDBOX}/sandbox/v1`,
    FINANCING_API_KEY: SANDBOX_KEY,
    ...(DATABASE_URL ? { DATABASE_URL } : {}),
  });
  if (PHASES.has("startup")) {
    // Before the app servers measured below start: each build alone for its start.
    await waitFor(`${SANDBOX}/api/health`);
    await measureStartup(
      [{ name: "app", dir: ROOT }, ...baselines.map(({ dir, commit }) => ({ name: `baseline ${commit}`, dir }))],
      appEnv,
    );
  }
  const launched: { name: string; base: string; child: ChildProcess }[] = [
    { name: "app", base: APP, child: start(appServerArgs(ROOT), appEnv(PORT), profile) },
  ];
  if (variantEnv) {
    const port = PORT + 3;
    launched.push({
      name: `app ${process.env.BENCH_COMPARE_ENV!.trim()}`,
      base: `http://localhost:${port}`,
      child: start(appServerArgs(ROOT), { ...appEnv(port), ...variantEnv }),
    });
  }
  // Ports +4, +5, …: +1 and +2 are the empty page's and the sandbox's, +3 the variant's.
  baselines.forEach((baseline, index) => {
    const port = PORT + 4 + index;
    launched.push({
      name: `baseline ${baseline.commit}`,
      base: `http://localhost:${port}`,
      child: start(appServerArgs(baseline.dir), appEnv(port), [], baseline.dir),
    });
  });
  const empty = start([NEXT_BIN, "start", EMPTY_APP, "-p", String(EMPTY_PORT)], {});
  const stop = () => {
    for (const { child } of launched) child.kill();
    empty.kill();
    sandbox.kill();
  };
  process.on("exit", stop);
  // A signal ends Node without its "exit" event: without this, a bench stopped with Ctrl-C or
  // `kill` (other than in the hold) left its servers running on their ports.
  const onSignal = (signal: NodeJS.Signals) => process.exit(signal === "SIGINT" ? 130 : 143);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await Promise.all([...launched.map(({ base }) => waitFor(`${base}/api/health`)), waitFor(EMPTY), waitFor(`${SANDBOX}/api/health`)]);
    say(
      `Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    say(`Database: ${DATABASE_URL ? `PostgreSQL (${new URL(DATABASE_URL).pathname.slice(1)})` : "PGlite (embedded)"}`);
    if (launched.length > 1) say(`App servers compared: ${launched.map(({ name }) => name).join(", ")}`);

    const apps: AppServer[] = [];
    for (const server of launched) apps.push({ ...server, ...(await openPages(server.base)) });
    const { pages, offersId } = apps[0]!;

    if (PHASES.has("hold")) {
      // BENCH_PHASES=hold: the servers and sessions stay up for measuring by hand, until Ctrl-C.
      say(`Holding (Ctrl-C to stop): ${pages.map(([name, url]) => `${name} ${url}`).join("  ")}  operation ${await operationOf(offersId)}`);
      // Here Ctrl-C ends the hold and goes on with the other phases asked for.
      process.off("SIGINT", onSignal);
      await new Promise((resolve) => process.once("SIGINT", resolve));
      process.on("SIGINT", onSignal);
    }
    if (PHASES.has("latency")) await measureLatency(apps);
    if (PHASES.has("size")) await measureSizes(pages);
    if (LIGHTHOUSE) await measureLighthouse(pages);
    if (PHASES.has("load")) await measureLoad(apps, empty);
  } finally {
    stop();
  }
}

type Page = [name: string, url: string];

/**
 * The first page on a fresh data folder against the ones after it: each build's server started on
 * a new folder, `/` asked every 20 ms from the moment it is spawned until it answers, then ten more
 * times. A server that takes traffic before its start-up is done (migrations, seeding) answers its
 * first request late; one that opens its port after shows a first request like the others.
 */
async function measureStartup(builds: { name: string; dir: string }[], env: (port: number) => Record<string, string>): Promise<void> {
  say("\nStart-up (a fresh data folder; `/` asked every 20 ms from the spawn until it answers, then 10 times more)");
  for (const [index, build] of builds.entries()) {
    const port = PORT + 10 + index;
    const spawned = performance.now();
    const child = start(appServerArgs(build.dir), env(port), [], build.dir);
    try {
      const url = `http://localhost:${port}/`;
      let first: number | undefined;
      for (let i = 0; i < 6000 && first === undefined; i++) {
        try {
          first = await timed(url);
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      if (first === undefined) throw new Error(`${build.name}: ${url} did not come up`);
      const answered = performance.now() - spawned;
      const after: number[] = [];
      for (let i = 0; i < 10; i++) after.push(await timed(url));
      say(
        `  ${build.name.padEnd(24)} first answer ${(answered / 1000).toFixed(1)} s after the spawn   first request ${first.toFixed(0)} ms   ` +
          `next ten p50 ${percentile(after, 50).toFixed(0)} ms, max ${Math.max(...after).toFixed(0)} ms`,
      );
    } finally {
      child.kill();
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
    }
  }
}

async function measureLatency(apps: AppServer[]): Promise<void> {
  await setUpstreamLatency(UPSTREAM_LATENCY_MS);
  const operationId = await operationOf(apps[0]!.offersId);
  const upstreamUrl = `${SANDBOX}/sandbox/v1/financing/${operationId}`;
  // As the app's client asks (lib/financing/client.ts): uncompressed, so that neither side of the
  // comparison carries a gzip the other does not.
  const upstreamInit = { headers: { "X-Service-API-Key": SANDBOX_KEY, "Accept-Encoding": "identity" } };
  const offersUrls = apps.map(({ pages }) => pages.find(([name]) => name === "offers")![1]);
  for (let i = 0; i < 5; i++) {
    for (const url of offersUrls) await timed(url);
    await timed(upstreamUrl, upstreamInit);
  }
  const offersTimes: number[][] = apps.map(() => []);
  const upstreamTimes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    // Interleaved, so that all see the same moment of a shared machine.
    for (const [n, url] of offersUrls.entries()) offersTimes[n]!.push(await timed(url));
    upstreamTimes.push(await timed(upstreamUrl, upstreamInit));
  }
  const [u50, u90] = [percentile(upstreamTimes, 50), percentile(upstreamTimes, 90)];
  say("");
  say(`Latency (${SAMPLES} sequential requests each, ${UPSTREAM_LATENCY_MS} ms upstream latency injected)`);
  say(`  GET /financing/{id}      p50 ${u50.toFixed(1)} ms   p90 ${u90.toFixed(1)} ms`);
  for (const [n, { name }] of apps.entries()) {
    const [o50, o90] = [percentile(offersTimes[n]!, 50), percentile(offersTimes[n]!, 90)];
    say(
      `  offers page${apps.length > 1 ? ` (${name})` : ""}`.padEnd(26) +
        ` p50 ${o50.toFixed(1)} ms   p90 ${o90.toFixed(1)} ms   page's own work (p50) ${(o50 - u50).toFixed(1)} ms   ratio ${(o50 / u50).toFixed(3)} ×`,
    );
  }
  await setUpstreamLatency(0);
}

/** 4. Each page's HTML and first-load JavaScript. */
async function measureSizes(pages: Page[]): Promise<void> {
  say("");
  say("Size (HTML as sent; first-load JavaScript gzip, as e2e/budget.spec.ts)");
  const floor = await firstLoadJs(`${APP}/this-page-does-not-exist`);
  say(`  empty page (not-found)   JS ${(floor.jsGzip / 1024).toFixed(1)} KB`);
  for (const [name, url] of pages) {
    const size = await firstLoadJs(url);
    say(
      `  ${name.padEnd(8)}                 HTML ${(size.html / 1024).toFixed(1)} KB (${(size.htmlGzip / 1024).toFixed(1)} KB gzip)   JS ${(size.jsGzip / 1024).toFixed(1)} KB (floor + ${((size.jsGzip - floor.jsGzip) / 1024).toFixed(1)} KB)`,
    );
  }
}

/**
 * 5. Lighthouse scores, the empty page's first. The mobile preset slows the CPU by a constant 4 ×,
 * which Lighthouse calibrates for a high-end desktop (benchmarkIndex 1500–2000, its own
 * throttling guide): on a slower or busier host every page's blocking time grows, ours and the
 * empty page's alike. The empty page's score and each run's benchmarkIndex say which it was.
 */
async function measureLighthouse(pages: Page[]): Promise<void> {
  say("");
  say("Lighthouse (mobile preset, simulated throttling; benchmarkIndex: the host's speed as Lighthouse measured it)");
  for (const [name, url] of [["empty page", `${EMPTY}/`], ...pages] as Page[]) {
    const score = await lighthouse(url);
    say(
      `  ${name.padEnd(24)} performance ${score.performance}   accessibility ${score.accessibility}   TBT ${score.tbt} ms   benchmarkIndex ${score.benchmarkIndex}`,
    );
  }
}

/** The median of some numbers (the upper one of the middle two). */
const median = (values: number[]) => percentile(values, 50);

/** A page's load result on one app server and the empty page's, over the slices they alternated in. */
interface Paired {
  page: LoadResult;
  empty: LoadResult;
  /** Per round: the empty page's CPU per request over the page's, and the page's requests/s over the empty page's. */
  cpuRatios: number[];
  rpsRatios: number[];
}

type Run = Awaited<ReturnType<typeof load>>;
/**
 * A run with its server's CPU time per request: on a machine shared with other work, requests/s
 * follow whatever else runs, while CPU time per request is the server's own cost.
 */
type LoadResult = Run & { cpuPerRequest: number };

/**
 * One page under load on each app server beside the empty page, in ROUNDS alternating slices
 * (empty, app, [other app servers…], empty, app…) of SECONDS / ROUNDS each: whatever else the
 * machine runs moves both sides of each round's ratio alike, where one long run of each would
 * compare two different moments.
 *
 * A slice is charged with the CPU its server spent until its next slice (the last, until a slice's
 * rest after it): V8 collects much of a burst's garbage once the burst is over, which a count
 * within the slice alone would leave out, for each server in its own measure.
 */
async function paired(urls: string[], apps: ChildProcess[], empty: ChildProcess): Promise<Paired[]> {
  const slice = SECONDS / ROUNDS;
  const pages: Run[][] = apps.map(() => []);
  const empties: Run[] = [];
  const emptyCpu: number[] = [];
  const appCpu: number[][] = apps.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    emptyCpu.push(cpuMs(empty.pid!));
    empties.push(await load(EMPTY, slice));
    for (const [n, app] of apps.entries()) {
      appCpu[n]!.push(cpuMs(app.pid!));
      pages[n]!.push(await load(urls[n]!, slice));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, slice * 1000));
  emptyCpu.push(cpuMs(empty.pid!));
  for (const [n, app] of apps.entries()) appCpu[n]!.push(cpuMs(app.pid!));
  const charged = (results: Run[], cpu: number[]): LoadResult[] =>
    results.map((result, i) => ({ ...result, cpuPerRequest: (cpu[i + 1]! - cpu[i]!) / Math.max(1, result.requests) }));
  const emptySlices = charged(empties, emptyCpu);
  return apps.map((_, n) => {
    const pageSlices = charged(pages[n]!, appCpu[n]!);
    return {
      page: combined(pageSlices),
      empty: combined(emptySlices),
      cpuRatios: pageSlices.map((page, i) => emptySlices[i]!.cpuPerRequest / page.cpuPerRequest),
      rpsRatios: pageSlices.map((page, i) => page.rps / emptySlices[i]!.rps),
    };
  });
}

/** Slices taken together: requests/s and CPU per request over all of them, the median slice's p50. */
function combined(slices: LoadResult[]): LoadResult {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  const cpu = slices.reduce((sum, s) => sum + s.cpuPerRequest * s.requests, 0);
  return {
    rps: requests / seconds,
    p50: median(slices.map((s) => s.p50)),
    errors: slices.reduce((sum, s) => sum + s.errors, 0),
    cpuPerRequest: cpu / Math.max(1, requests),
    requests,
    seconds,
  };
}

/** A round whose slice completed no request has no ratio (a machine too busy to measure): left out. */
const finite = (values: number[]) => values.filter((value) => Number.isFinite(value));
const range = (values: number[]) => {
  const kept = finite(values);
  return kept.length === 0 ? "n/a" : `${Math.min(...kept).toFixed(2)}–${Math.max(...kept).toFixed(2)}`;
};
const medianRatio = (values: number[]) => {
  const kept = finite(values);
  return kept.length === 0 ? "n/a" : median(kept).toFixed(2);
};

/** 6. Requests/s and CPU per request under load, each page against the empty page beside it, and each server's memory. */
async function measureLoad(apps: AppServer[], empty: ChildProcess): Promise<void> {
  say("");
  say(
    `Load (autocannon, 10 connections, no upstream latency; each page ${SECONDS} s in ${ROUNDS} slices alternating with the empty page's; ratios: the median round's, and the rounds' range)`,
  );
  const only = process.env.BENCH_LOAD_PAGES?.split(",").map((name) => name.trim());
  const pageUrls = (app: AppServer) =>
    ([["demo shop", `${app.base}/`], ...app.pages] as Page[]).filter(([name]) => !only || only.includes(name));
  const chosen = pageUrls(apps[0]!).map(([name]) => name);
  // Warm-up, not counted: the first requests of a page compile its code (V8's JIT, Next's lazy
  // route modules), which a server in production has long done. The empty page's comes last, right
  // before the first round: warmed first and then left idle while the app's pages warmed, its
  // slices beside the first page measured cost 1.4–2 × those beside the later ones (4.1–6.0
  // against 2.5–3.5 ms of CPU per request), flattering that first page.
  for (const app of apps) for (const [, url] of pageUrls(app)) await load(url, SECONDS / 2);
  await load(EMPTY, SECONDS);
  // Each app server's RSS after each page's runs (it grows with what the pages have loaded).
  const results: [string, Paired[], number[]][] = [];
  for (const [i, name] of chosen.entries()) {
    const runs = await paired(
      apps.map((app) => pageUrls(app)[i]![1]),
      apps.map(({ child }) => child),
      empty,
    );
    results.push([name, runs, apps.map(({ child }) => rssMb(child.pid!))]);
  }
  const emptyRss = rssMb(empty.pid!);
  const all = combined(results.map(([, runs]) => runs[0]!.empty));
  say(
    `  empty dynamic page       ${all.rps.toFixed(1)} req/s   p50 ${all.p50} ms   CPU ${all.cpuPerRequest.toFixed(1)} ms/req   RSS ${emptyRss.toFixed(0)} MB   (all its slices)`,
  );
  for (const [name, runs, rss] of results) {
    for (const [n, { page, empty: beside, cpuRatios, rpsRatios }] of runs.entries()) {
      const label = apps.length > 1 ? `${n === 0 ? name : ""}`.padEnd(10) + apps[n]!.name.slice(0, 22).padEnd(23) : name.padEnd(24);
      say(
        `  ${label} ${page.rps.toFixed(1)} req/s   ${medianRatio(rpsRatios)} × (${range(rpsRatios)})   p50 ${page.p50} ms   errors ${page.errors}   CPU ${page.cpuPerRequest.toFixed(1)} ms/req against ${beside.cpuPerRequest.toFixed(1)} (${medianRatio(cpuRatios)} ×, rounds ${range(cpuRatios)})   RSS ${rss[n]!.toFixed(0)} MB (${(rss[n]! / emptyRss).toFixed(2)} ×)`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:checkout failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
