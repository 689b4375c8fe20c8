/**
 * `npm run bench:journey`: whole checkouts over plain HTTP, as a customer without JavaScript and an
 * agency's backend do them, on PostgreSQL and on PGlite, with the financing API's stand-in (the
 * sandbox) in a process of its own and an empty `force-dynamic` Next page measured in the same run
 * as the floor (docs/contributors/performance.md, "The journey"). Not part of `npm test`.
 *
 * One journey: the agency opens a session by the API → the details page → its form sent → the
 * offers → a plan chosen → the provider's page (the sandbox's) → signed → back at the checkout's
 * return → the status page → the agency's signed notification of the outcome (a receiver on
 * loopback, scripts/bench/agency.ts, that verifies the signature) → the API's GET of the session.
 *
 * Options (environment): BENCH_CONCURRENCY (customers at once, "1,4,16"), BENCH_SECONDS (per
 * concurrency and build, 20), BENCH_DATABASES ("postgres,pglite"), BENCH_POSTGRES_URL (the server
 * the throwaway databases are created on, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_FLOOR_SECONDS (the empty page's load before each concurrency, 3), BENCH_IDLE_SECONDS (5),
 * BENCH_NOTIFY_TIMEOUT_SECONDS (how long a journey waits for its notification, 60), BENCH_PORT
 * (3540: the app; +1 the empty page, +2 the sandbox, +4… the baselines' apps, +20… the agencies'
 * receivers), BENCH_SKIP_BUILD=1, BENCH_BASELINE_REV=<rev>[,<rev>…] (each revision's build measured
 * beside this one, at every concurrency in turn, as in bench:checkout), BENCH_CPU_PROF=<dir> (each app
 * server under `node --cpu-prof`, its profile written there when it stops, with `steps.json`: each
 * step's window on the machine's monotonic clock, for scripts/bench/cpu-profile-steps.ts).
 */
import { type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startAgency, type Agency } from "./bench/agency";
import { CUSTOMER_FIELDS, formWith, hiddenFields, PARTNER_SECRET, sessionBody } from "./bench/journey";
import type { StepWindow } from "./bench/cpu-profile";
import { report, type Journey, type Level, type ReportedServer } from "./bench/journey-report";
import { load } from "./bench/measures";
import { DatabaseWatch, throwawayDatabase } from "./bench/postgres";
import {
  appEnv,
  appServerArgs,
  baselineBuilds,
  buildAppAndFloor,
  cpuMs,
  EMPTY,
  EMPTY_APP,
  EMPTY_PORT,
  exited,
  machineLine,
  NEXT_BIN,
  PORT,
  ROOT,
  rssMb,
  SANDBOX,
  say,
  start,
  startSandbox,
  stopOnExit,
  waitFor,
} from "./bench/servers";
import { Customer } from "./bench/no-js-customer";

const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,4,16").split(",").map((n) => Math.max(1, Number(n.trim())));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const FLOOR_SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 3);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const NOTIFY_TIMEOUT_MS = Number(process.env.BENCH_NOTIFY_TIMEOUT_SECONDS ?? 60) * 1000;
const DATABASES = (process.env.BENCH_DATABASES ?? "postgres,pglite").split(",").map((d) => d.trim());
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;

/** Every process the bench starts, stopped at its exit whatever ends it. */
const children = new Set<ChildProcess>();

/** The app's limits per partner and address, out of the way: one agency and one address send every journey here. */
const UNLIMITED = Object.fromEntries(
  [
    "SESSIONS_API_CREATE_PER_MINUTE_PARTNER",
    "SESSIONS_API_CREATE_PER_MINUTE_IP",
    "SESSIONS_API_READS_PER_MINUTE_PARTNER",
    "SESSIONS_API_ACTIONS_PER_MINUTE_PARTNER",
    "STATUS_READS_PER_MINUTE_SESSION",
    "STATUS_READS_PER_MINUTE_IP",
  ].map((name) => [name, "100000"]),
);

/** One app server under measure: a build, its database, its agency in front. */
interface Server extends ReportedServer {
  child: ChildProcess;
  agency: Agency;
  dataDir: string;
  watch: DatabaseWatch | undefined;
  drop: (() => Promise<void>) | undefined;
  /** BENCH_CPU_PROF: each step's window, in µs of the monotonic clock V8's profile timestamps use. */
  windows: StepWindow[];
}

/** The machine's monotonic clock in µs: the clock of a V8 CPU profile's timestamps, in any process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** One journey; `meter` (at one customer): the CPU of the app and of its database around each step. */
async function journey(server: Server, meter: (() => [number, number]) | undefined, customers = 0): Promise<Journey> {
  const app = server.agency.url;
  const customer = new Customer(app);
  const latency = new Map<string, number>();
  const cpu = new Map<string, [number, number]>();
  async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = meter?.();
    const started = performance.now();
    const fromUs = monotonicUs();
    const result = await work();
    latency.set(name, performance.now() - started);
    if (CPU_PROF) server.windows.push({ customers, step: name, fromUs, toUs: monotonicUs() });
    const after = meter?.();
    if (before && after) cpu.set(name, [after[0] - before[0], after[1] - before[1]]);
    return result;
  }
  const reference = `JOURNEY-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const sessionId = await step("open (API)", async () => {
    const response = await customer.send(`${app}/api/checkout-sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_SECRET}`, "Content-Type": "application/json" },
      body: JSON.stringify(sessionBody(reference, app)),
    });
    const body = (await response.json()) as { id: string };
    if (response.status !== 201) throw new Error(`open (API): ${response.status}`);
    return body.id;
  });
  const checkout = `${app}/checkout/${sessionId}`;
  const details = await step("details page", () => customer.page(checkout, "details page"));
  const offersUrl = await step("submit", () =>
    customer.post(
      checkout,
      [
        ...hiddenFields(details, formWith(details, "documentId")).filter(([name]) => name.startsWith("$") || name === "sessionId"),
        ...CUSTOMER_FIELDS(),
      ],
      "submit",
    ),
  );
  const offers = await step("offers", () => customer.page(offersUrl, "offers"));
  const providerUrl = await step("choose", async () =>
    customer.follow(await customer.post(offersUrl, hiddenFields(offers, formWith(offers, "offerId")), "choose"), "choose"),
  );
  const provider = await step("provider page*", () => customer.page(providerUrl, "provider page"));
  const sign = /<form[^>]*action="([^"]*\/sign[^"]*)"/.exec(provider)?.[1]?.replaceAll("&amp;", "&");
  if (!sign) throw new Error("provider page: no form to sign");
  const returnUrl = await step("sign*", () => customer.post(new URL(sign, providerUrl).href, [], "sign"));
  // As a browser: the return's redirect followed to the page it leads to, the status page, whose
  // request is the next step; a page the return answers itself is where the browser stays.
  const statusUrl = await step("return", () => customer.redirectOf(returnUrl, "return"));
  const returned = performance.now();
  if (statusUrl) await step("status", () => customer.follow(statusUrl, "status"));
  const notifiedAt = await step("notified", () => server.agency.arrival(sessionId, "checkout.session.confirmed", NOTIFY_TIMEOUT_MS));
  await step("API GET", async () => {
    const response = await customer.send(`${app}/api/checkout-sessions/${sessionId}`, {
      headers: { Authorization: `Bearer ${PARTNER_SECRET}` },
    });
    const body = (await response.json()) as { state?: string };
    if (response.status !== 200 || body.state !== "confirmed") throw new Error(`API GET: ${response.status} ${body.state}`);
  });
  return { sessionId, latency, cpu, appRequests: customer.appRequests, notifiedAfterReturn: Math.max(0, notifiedAt - returned) };
}

const appCpuOf = (server: Server) => cpuMs(server.child.pid!);
const dbCpuOf = (server: Server) => server.watch?.cpuMs() ?? Number.NaN;

/** `customers` journeys at once for SECONDS (those under way then finish), after the empty page's floor. */
async function runLevel(server: Server, empty: ChildProcess, customers: number): Promise<Level> {
  const emptyBefore = cpuMs(empty.pid!);
  const floor = await load(EMPTY, FLOOR_SECONDS);
  const floorCpuPerRequest = (cpuMs(empty.pid!) - emptyBefore) / Math.max(1, floor.requests);
  const journeys: Journey[] = [];
  const errors: string[] = [];
  const meter = customers === 1 ? (): [number, number] => [appCpuOf(server), dbCpuOf(server)] : undefined;
  const [app0, db0, t0] = [appCpuOf(server), dbCpuOf(server), performance.now()];
  const deadline = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: customers }, async () => {
      while (performance.now() < deadline) {
        try {
          journeys.push(await journey(server, meter, customers));
        } catch (error) {
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { customers, journeys, errors, seconds, appCpu: appCpuOf(server) - app0, dbCpu: dbCpuOf(server) - db0, floorCpuPerRequest };
}

async function startServer(name: string, dir: string, index: number, database: string, stamp: string): Promise<Server> {
  const port = index === 0 ? PORT : PORT + 3 + index;
  const agency = await startAgency(PORT + 20 + index, port);
  let watch: DatabaseWatch | undefined;
  let drop: (() => Promise<void>) | undefined;
  const extra: Record<string, string> = { ...UNLIMITED, APP_URL: agency.url };
  if (database === "postgres") {
    const dbName = `bench_journey_${stamp}_${index}`;
    const created = await throwawayDatabase(POSTGRES_URL, dbName);
    drop = created.drop;
    extra.DATABASE_URL = created.url;
    watch = new DatabaseWatch(created.url, dbName);
  }
  const env = appEnv(port, extra);
  const child = start(appServerArgs(dir), env, cpuProfileArgs(database, index), dir);
  children.add(child);
  return { name, child, agency, dataDir: env.DATA_DIR!, watch, drop, peakRss: 0, levels: [], idleCpuPerSecond: Number.NaN, windows: [] };
}

/** BENCH_CPU_PROF: the node flags of a server's profile, in a folder of its own (<dir>/<database>-<index>). */
function cpuProfileArgs(database: string, index: number): string[] {
  if (!CPU_PROF) return [];
  const dir = path.join(CPU_PROF, `${database}-${index}`);
  mkdirSync(dir, { recursive: true });
  return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
}

/** SIGTERM (the app closes PGlite and its pools), then SIGKILL if it is still there after 20 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited(child);
  clearTimeout(timer);
}

async function stopServer(server: Server, database: string, index: number): Promise<void> {
  await stopChild(server.child);
  if (CPU_PROF) writeFileSync(path.join(CPU_PROF, `${database}-${index}`, "steps.json"), JSON.stringify(server.windows));
  await server.agency.close();
  await server.watch?.stop();
  await server.drop?.();
  rmSync(server.dataDir, { recursive: true, force: true });
}

async function benchDatabase(database: string, builds: { name: string; dir: string }[], empty: ChildProcess): Promise<void> {
  const stamp = Date.now().toString(36);
  const servers: Server[] = [];
  try {
    for (const [index, build] of builds.entries()) servers.push(await startServer(build.name, build.dir, index, database, stamp));
    await Promise.all(servers.map(({ agency }) => waitFor(`${agency.url}/api/health`)));
    for (const server of servers) await server.watch?.start();
    let emptyPeak = 0;
    const rss = setInterval(() => {
      for (const server of servers) server.peakRss = Math.max(server.peakRss, rssMb(server.child.pid!));
      emptyPeak = Math.max(emptyPeak, rssMb(empty.pid!));
    }, 250);
    try {
      // Warm-up, not counted: a first journey compiles each route's code.
      for (const server of servers) await journey(server, undefined);
      for (const customers of CONCURRENCY) for (const server of servers) server.levels.push(await runLevel(server, empty, customers));
      // Idle: once the last notifications are in, the CPU each server spends doing nothing.
      await quiet(servers);
      const before = servers.map(appCpuOf);
      const emptyBefore = cpuMs(empty.pid!);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      servers.forEach((server, i) => (server.idleCpuPerSecond = (appCpuOf(server) - before[i]!) / IDLE_SECONDS));
      const emptyIdle = (cpuMs(empty.pid!) - emptyBefore) / IDLE_SECONDS;
      report(database, CONCURRENCY, servers, emptyPeak, emptyIdle);
    } finally {
      clearInterval(rss);
    }
  } finally {
    for (const [index, server] of servers.entries()) await stopServer(server, database, index);
  }
}

/** Waits until no notification has come for 2 s (30 s at most). */
async function quiet(servers: Server[]): Promise<void> {
  const count = () => servers.reduce((sum, s) => sum + s.agency.received.length, 0);
  for (let i = 0, last = -1; i < 15 && count() !== last; i++) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function main() {
  buildAppAndFloor();

  const builds = [{ name: "app", dir: ROOT }, ...baselineBuilds().map(({ dir, commit }) => ({ name: `baseline ${commit}`, dir }))];
  const { child: sandbox, dataDir: sandboxDir } = startSandbox(true);
  const empty = start([NEXT_BIN, "start", EMPTY_APP, "-p", String(EMPTY_PORT)], {});
  children.add(sandbox).add(empty);
  // A last resort (Ctrl-C, a crash): the orderly stop, which lets PGlite close, is in the `finally`s.
  stopOnExit(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  try {
    await Promise.all([waitFor(EMPTY), waitFor(`${SANDBOX}/sandbox/v1`)]);
    say(machineLine());
    say(
      `Journeys: ${CONCURRENCY.join(", ")} customers at once, ${SECONDS} s each per build; the empty page's floor ${FLOOR_SECONDS} s before each (autocannon, 10 connections)`,
    );
    for (const database of DATABASES) await benchDatabase(database, builds, empty);
  } finally {
    await Promise.all([stopChild(sandbox), stopChild(empty)]);
    rmSync(sandboxDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:journey failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
