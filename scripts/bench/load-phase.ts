import type { ChildProcess } from "node:child_process";
import { EMPTY, say, cpuMs, rssMb, type AppServer, type Page } from "./servers";
import { load, percentile } from "./measures";

/*
 * The bench's load phase (scripts/bench-checkout.ts): each page under autocannon on every app
 * server beside the empty page, in alternating slices, and the ratios that come out of them.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

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
export async function measureLoad(apps: AppServer[], empty: ChildProcess): Promise<void> {
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
