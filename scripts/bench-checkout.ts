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
 * BENCH_OTLP=1: the second server exports traces (OTEL_EXPORTER_OTLP_ENDPOINT, with
 * OTEL_BSP_SCHEDULE_DELAY=1000) to a collector stand-in the bench starts (scripts/bench/otlp-sink.ts),
 * beside whatever BENCH_COMPARE_ENV sets: tracing off, on and the previous build in one run.
 */
import { type ChildProcess } from "node:child_process";
import path from "node:path";
import { INSTALL_HINT } from "./chromium.mjs";
import { SANDBOX_KEY, operationOf, setUpstreamLatency, openPages } from "./bench/journey";
import { measureLoad } from "./bench/load-phase";
import { startOtlpSink } from "./bench/otlp-sink";
import { chromium, percentile, timed, firstLoadJs, lighthouse } from "./bench/measures";
import {
  say,
  ROOT,
  NEXT_BIN,
  EMPTY_APP,
  PORT,
  EMPTY_PORT,
  SANDBOX,
  APP,
  EMPTY,
  appServerArgs,
  start,
  waitFor,
  baselineBuilds,
  buildAppAndFloor,
  compareEnv,
  startSandbox,
  appEnv,
  stopOnExit,
  exited,
  machineLine,
  type AppServer,
  type Page,
} from "./bench/servers";

const SAMPLES = Number(process.env.BENCH_REQUESTS ?? 60);
/** `--database-url=postgres://…` (or DATABASE_URL): the app on PostgreSQL instead of its own PGlite. */
const DATABASE_URL =
  process.argv.find((arg) => arg.startsWith("--database-url="))?.slice("--database-url=".length) || process.env.DATABASE_URL || undefined;
const UPSTREAM_LATENCY_MS = 150;
/** BENCH_PHASES: which measures to take (default all), e.g. `load` alone under a profiler. */
const PHASES = new Set((process.env.BENCH_PHASES ?? "startup,latency,size,lighthouse,load").split(",").map((p) => p.trim()));
const LIGHTHOUSE = PHASES.has("lighthouse") && process.env.BENCH_LIGHTHOUSE !== "0";

// ---------------------------------------------------------------------------------------------
// The sessions the pages are measured on

// ---------------------------------------------------------------------------------------------
// Measures

// ---------------------------------------------------------------------------------------------

async function main() {
  if (LIGHTHOUSE && chromium.path === null) {
    // Said before minutes of building, not after.
    process.stderr.write(`${chromium.error}\n${INSTALL_HINT}\nOr run without Lighthouse: BENCH_LIGHTHOUSE=0.\n`);
    process.exit(1);
  }
  buildAppAndFloor();
  const sink = process.env.BENCH_OTLP === "1" ? await startOtlpSink() : undefined;
  const variantEnv = sink ? { ...compareEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_BSP_SCHEDULE_DELAY: "1000" } : compareEnv();
  const variantName = ["app", process.env.BENCH_COMPARE_ENV?.trim(), sink ? "tracing on (OTLP)" : undefined].filter(Boolean).join(" ");
  const baselines = baselineBuilds();
  // BENCH_CPU_PROF=<dir>: the app's server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools, or summarise it with scripts/bench/cpu-profile-summary.ts).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const { child: sandbox } = startSandbox();
  const appEnvOf = (port: number) => appEnv(port, DATABASE_URL ? { DATABASE_URL } : {});
  if (PHASES.has("startup")) {
    // Before the app servers measured below start: each build alone for its start.
    await waitFor(`${SANDBOX}/api/health`);
    await measureStartup(
      [{ name: "app", dir: ROOT }, ...baselines.map(({ dir, commit }) => ({ name: `baseline ${commit}`, dir }))],
      appEnvOf,
    );
  }
  const launched: { name: string; base: string; child: ChildProcess }[] = [
    { name: "app", base: APP, child: start(appServerArgs(ROOT), appEnvOf(PORT), profile) },
  ];
  if (variantEnv) {
    const port = PORT + 3;
    launched.push({
      name: variantName,
      base: `http://localhost:${port}`,
      child: start(appServerArgs(ROOT), { ...appEnvOf(port), ...variantEnv }),
    });
  }
  // Ports +4, +5, …: +1 and +2 are the empty page's and the sandbox's, +3 the variant's.
  baselines.forEach((baseline, index) => {
    const port = PORT + 4 + index;
    launched.push({
      name: `baseline ${baseline.commit}`,
      base: `http://localhost:${port}`,
      child: start(appServerArgs(baseline.dir), appEnvOf(port), [], baseline.dir),
    });
  });
  const empty = start([NEXT_BIN, "start", EMPTY_APP, "-p", String(EMPTY_PORT)], {});
  const stop = () => {
    for (const { child } of launched) child.kill();
    empty.kill();
    sandbox.kill();
  };
  const onSignal = stopOnExit(stop);
  try {
    await Promise.all([...launched.map(({ base }) => waitFor(`${base}/api/health`)), waitFor(EMPTY), waitFor(`${SANDBOX}/api/health`)]);
    say(machineLine());
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
    if (sink) say(`Collector stand-in: ${sink.received().exports} exports, ${Math.round(sink.received().bytes / 1024)} KB received`);
  } finally {
    stop();
    await sink?.close();
  }
}

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
      await exited(child);
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

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:checkout failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
