import type { Agency } from "./agency";
import { exactlyOnce, summarize } from "./journey-stats";
import type { DatabaseWatch } from "./postgres";
import { say } from "./servers";

/*
 * The journey bench's results (scripts/bench-journey.ts): what one journey and one concurrency
 * level measured, and the tables printed of them for each database.
 */

/** The steps of a journey; the provider's page and the signature are the sandbox's, not the app's. */
const STEPS = [
  "open (API)",
  "details page",
  "submit",
  "offers",
  "choose",
  "provider page*",
  "sign*",
  "return",
  "status",
  "notified",
  "API GET",
];
/** The notifications each journey's session must bring the agency, once each. */
const NOTIFICATIONS = ["checkout.session.choosing", "checkout.session.pending", "checkout.session.confirmed"];
const LOCK_WAIT_MS = 100;

export interface Journey {
  sessionId: string;
  latency: Map<string, number>;
  /** Per step, app and database CPU (ms): measured at one customer only. */
  cpu: Map<string, [number, number]>;
  appRequests: number;
  /** From the end of the return to the outcome's notification. */
  notifiedAfterReturn: number;
}

export interface Level {
  customers: number;
  journeys: Journey[];
  errors: string[];
  seconds: number;
  appCpu: number;
  dbCpu: number;
  floorCpuPerRequest: number;
}

/** What the report reads of one app server under measure. */
export interface ReportedServer {
  name: string;
  agency: Pick<Agency, "received" | "refused">;
  watch: Pick<DatabaseWatch, "lockWaits"> | undefined;
  peakRss: number;
  /** One per concurrency, in the order of the bench's concurrencies. */
  levels: Level[];
  idleCpuPerSecond: number;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");
/** A figure in ms with its unit, or "n/a". */
const inMs = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "n/a");

/** One build's row at one concurrency: journeys per second, CPU per journey, and the app's CPU against the empty page's floor. */
export function levelRow(name: string, customers: number, level: Level): string {
  const n = Math.max(1, level.journeys.length);
  const requests = level.journeys.reduce((sum, j) => sum + j.appRequests, 0) / n;
  const notified = summarize(level.journeys.map((j) => j.notifiedAfterReturn));
  return `  ${name.slice(0, 22).padEnd(22)}  ${String(customers).padStart(9)}  ${String(level.journeys.length).padStart(8)}  ${(level.journeys.length / level.seconds).toFixed(2).padStart(10)}  ${String(level.errors.length).padStart(6)}  ${inMs(level.appCpu / n).padStart(15)}  ${inMs(level.dbCpu / n).padStart(14)}  ${requests.toFixed(1).padStart(12)}  ${inMs(level.floorCpuPerRequest).padStart(13)}  ${`${(level.appCpu / n / (requests * level.floorCpuPerRequest)).toFixed(1)} ×`.padStart(28)}  ${ms(notified.p50)} / ${ms(notified.p95)} ms`;
}

/** The longest single step of any journey of a level (a stall a percentile hides), or undefined for none. */
export function slowestStep(level: Pick<Level, "journeys">): { step: string; ms: number; sessionId: string } | undefined {
  let slowest: { step: string; ms: number; sessionId: string } | undefined;
  for (const journey of level.journeys) {
    for (const [step, ms] of journey.latency) if (!slowest || ms > slowest.ms) slowest = { step, ms, sessionId: journey.sessionId };
  }
  return slowest;
}

/** One database's tables: a row per build and concurrency, then each build's steps, idle CPU, memory and notifications. */
export function report(
  database: string,
  concurrency: readonly number[],
  servers: ReportedServer[],
  emptyPeak: number,
  emptyIdle: number,
): void {
  say("");
  say(
    database === "postgres"
      ? "PostgreSQL (a throwaway database per server). Database CPU: /proc/<pid>/stat of the database's backends (pg_stat_activity), the server's shared processes (WAL writer, checkpointer, autovacuum) not counted."
      : "PGlite (embedded): the database's work is in the app's process and its CPU; no separate database CPU.",
  );
  say(
    "  build                   customers  journeys  journeys/s  errors  app CPU/journey  DB CPU/journey  app requests  floor CPU/req  app CPU ÷ (requests × floor)  notified after return p50/p95",
  );
  for (const [l, customers] of concurrency.entries()) {
    for (const server of servers) {
      const level = server.levels[l]!;
      say(levelRow(server.name, customers, level));
      for (const error of new Set(level.errors)) say(`      error: ${error} (${level.errors.filter((e) => e === error).length} ×)`);
    }
  }
  for (const server of servers) {
    say(
      `  Steps, ${server.name}: latency p50/p95 ms at ${concurrency.join(", ")} customers; CPU app / database ms per step at 1 customer (* the sandbox's step: its CPU is not the app's; background work counts in the step it overlaps)`,
    );
    const single = server.levels[concurrency.indexOf(1)];
    for (const name of STEPS) {
      const latencies = server.levels.map((level) => summarize(level.journeys.map((j) => j.latency.get(name) ?? Number.NaN)));
      const cpu = single?.journeys.map((j) => j.cpu.get(name)).filter((c) => c !== undefined) ?? [];
      const mean = (i: 0 | 1) => cpu.reduce((sum, c) => sum + c[i], 0) / Math.max(1, cpu.length);
      say(
        `    ${name.padEnd(15)} ${latencies.map((s) => `${ms(s.p50)}/${ms(s.p95)}`.padStart(15)).join(" ")}   ${single ? `CPU ${ms(mean(0))} / ${ms(mean(1))}` : ""}`,
      );
    }
    const slowest = server.levels.map((level) => {
      const step = slowestStep(level);
      return step ? `${step.step} ${ms(step.ms)} ms (${step.sessionId})` : "none";
    });
    say(`    slowest step at ${concurrency.join(", ")} customers: ${slowest.join("; ")}`);
    const journeys = server.levels.flatMap((level) => level.journeys);
    const tally = exactlyOnce(
      server.agency.received,
      journeys.map((j) => j.sessionId),
      NOTIFICATIONS,
    );
    const locks = server.watch?.lockWaits(LOCK_WAIT_MS);
    say(
      `  ${server.name}: idle CPU ${ms(server.idleCpuPerSecond)} ms/s (empty page ${ms(emptyIdle)})   peak RSS ${server.peakRss.toFixed(0)} MB (empty page ${emptyPeak.toFixed(0)} MB, ${(server.peakRss / emptyPeak).toFixed(2)} ×)` +
        (locks
          ? `   lock waits (pg_locks sampled every 100 ms): ${locks.seen} seen, ${locks.over} ≥ ${LOCK_WAIT_MS} ms, longest ${locks.longestMs.toFixed(0)} ms`
          : ""),
    );
    say(
      `  ${server.name}: notifications exactly once (choosing, pending, confirmed): ${tally.once} of ${journeys.length} journeys; missing ${tally.missing}, duplicated ${tally.duplicated}; refused signatures ${server.agency.refused}`,
    );
  }
}
