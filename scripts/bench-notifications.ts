/**
 * `npm run bench:notifications [-- --rate 200 --seconds 10 --partners 8 --slow 1 --slow-ms 2000 --drivers pglite,postgres]`
 *
 * Partner notifications as the worker sends them, at a steady volume: writers commit state changes'
 * notifications (the outbox's own transaction, lib/checkout/session/outbox.ts) at `rate` a second
 * for `seconds`, spread evenly over `partners` partners whose endpoints answer at once and `slow`
 * more whose endpoints take `slow-ms` to answer; the notification pump runs as in the worker (on the
 * background pool, woken by each commit's signal, no timed round). Prints, for the fast partners,
 * the lag from each commit to its arrival (p50, p95, p99, max), the deliveries per second, and
 * whether each arrived exactly once and in its partner's feed order; what the slow partners got
 * meanwhile; and this process's CPU per notification (writers, delivery and endpoints together).
 * On PGlite, and on PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set. Figures only:
 * nothing passes or fails on a timing (a notification lost, duplicated or out of order exits 1).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import type { Database } from "../lib/db";
import { onSignal } from "../lib/db/signals";
import { checkoutSessions, partnerNotifications, partners } from "../lib/db/schema";
import { newSigningSecret } from "../lib/checkout/background/notification-send";
import { createNotificationPump } from "../lib/checkout/background/notifications";
import { enqueueNotification, outboxTransaction, OUTBOX_CHANNEL } from "../lib/checkout/session/outbox";
import type { CheckoutSession } from "../lib/checkout/session/session-state";
import { storedSession } from "../lib/checkout/testing/context";
import { lagSummary, mergeTallies, tallyDeliveries, type Arrival, type Written } from "./bench/notification-stats";
import { onEachDatabase } from "./bench/in-process-databases";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    partners: { type: "string", default: "8" },
    slow: { type: "string", default: "1" },
    "slow-ms": { type: "string", default: "2000" },
    drivers: { type: "string", default: "pglite,postgres" },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const FAST = Number(values.partners);
const SLOW = Number(values.slow);
const SLOW_MS = Number(values["slow-ms"]);
const DRIVERS = new Set(values.drivers.split(","));
/** Writes in flight at most, as concurrent requests would commit them. */
const WRITERS = 32;
/** How long the fast partners' last notifications may take once the writers stop. */
const DRAIN_TIMEOUT_MS = 60_000;

/** The partners' endpoints, one server, a path each: `/n/<partnerId>`; the slow ones answer after SLOW_MS. */
async function endpoints(slow: ReadonlySet<string>, arrivals: Arrival[]): Promise<Server> {
  const server = createServer((request, response) => {
    const partnerId = decodeURIComponent((request.url ?? "").slice("/n/".length));
    request.resume();
    request.on("end", () => {
      const answer = () => {
        arrivals.push({ id: String(request.headers["webhook-id"]), partnerId, at: performance.now() });
        response.writeHead(204).end();
      };
      if (slow.has(partnerId)) setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function fixed(value: number, digits = 0): string {
  return Number.isNaN(value) ? "–" : value.toFixed(digits);
}

async function run(label: string, database: Database): Promise<void> {
  const db = database.db;
  const tag = Date.now().toString(36);
  const fastIds = Array.from({ length: FAST }, (_, i) => `bench_fast_${i}`);
  const slowIds = Array.from({ length: SLOW }, (_, i) => `bench_slow_${i}`);
  const partnerIds = [...fastIds, ...slowIds];
  const arrivals: Arrival[] = [];
  const server = await endpoints(new Set(slowIds), arrivals);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/n/`;
  await db.insert(partners).values(
    partnerIds.map((id) => ({
      id,
      name: id,
      allowedOrigins: ["http://127.0.0.1"],
      notificationUrl: `${base}${encodeURIComponent(id)}`,
      signingSecret: newSigningSecret(),
    })),
  );

  // One session per notification, spread evenly over the partners, stored before the clock starts.
  const total = Math.round(RATE * SECONDS);
  const rows = Array.from({ length: total }, (_, i) =>
    storedSession({
      id: `cs_nb${tag}${String(i).padStart(8, "0")}`,
      reference: `NB-${tag}-${i}`,
      partnerId: partnerIds[i % partnerIds.length]!,
    }),
  );
  for (let i = 0; i < rows.length; i += 500) await db.insert(checkoutSessions).values(rows.slice(i, i + 500));
  const sessions: CheckoutSession[] = await db.select().from(checkoutSessions);
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const ordered = rows.map((row) => byId.get(row.id)!);

  // As in the worker (lib/checkout/background/worker.ts), without its timed round: only the commits' wake-ups.
  const pump = createNotificationPump({ db: database.background }, { environment: "sandbox" });
  const stopListening = await onSignal(database.background, OUTBOX_CHANNEL, () => pump.wake());

  const committedAt = new Map<string, number>();
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  let next = 0;
  let inFlight = 0;
  await new Promise<void>((resolve, reject) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      while (next < due && inFlight < WRITERS) {
        const session = ordered[next++]!;
        inFlight++;
        outboxTransaction(db, (tx) => enqueueNotification(tx, session))
          .then(() => {
            committedAt.set(session.id, performance.now());
            inFlight--;
            if (committedAt.size === total) resolve();
          })
          .catch(reject);
      }
      if (next < total) setTimeout(tick, 5);
    };
    tick();
  });
  const writtenSeconds = (performance.now() - started) / 1000;

  const fast = new Set(fastIds);
  const fastTotal = ordered.filter((s) => fast.has(s.partnerId)).length;
  const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
  const fastArrived = () => new Set(arrivals.filter((a) => fast.has(a.partnerId)).map((a) => a.id)).size;
  while (fastArrived() < fastTotal && performance.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const fastDoneSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  const delivered = arrivals.length;

  // The slow partners' endpoint goes away: what they still wait for fails at once and is postponed.
  await stopListening();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await pump.idle();

  const notes = await db
    .select({ id: partnerNotifications.id, sessionId: partnerNotifications.sessionId, partnerSeq: partnerNotifications.partnerSeq })
    .from(partnerNotifications);
  const written: Written[] = notes
    .filter((n) => committedAt.has(n.sessionId))
    .map((n) => ({ id: n.id, partnerId: byId.get(n.sessionId)!.partnerId, partnerSeq: n.partnerSeq, at: committedAt.get(n.sessionId)! }));
  const tallies = tallyDeliveries(written, arrivals);
  const fastTally = mergeTallies(fastIds.map((id) => tallies.get(id)!));
  const slowTally = mergeTallies(slowIds.map((id) => tallies.get(id)!));
  const lag = lagSummary(fastTally.lags);
  const slowLag = lagSummary(slowTally.lags);
  const faults =
    fastTally.duplicates + fastTally.unknown + fastTally.outOfOrder + slowTally.duplicates + slowTally.unknown + slowTally.outOfOrder;
  const lost = fastTally.written - fastTally.delivered;

  console.log(
    `${label}: ${FAST} partners answering at once + ${SLOW} answering after ${SLOW_MS} ms; ${total} notifications written at ${RATE}/s\n` +
      `  written: ${written.length} in ${writtenSeconds.toFixed(1)} s (${fixed(written.length / writtenSeconds)}/s)\n` +
      `  fast partners: ${fastTally.delivered} of ${fastTally.written} delivered, the last ${fixed(fastDoneSeconds, 1)} s after the first write ` +
      `(${fixed(fastTally.delivered / fastDoneSeconds)}/s); commit → arrival p50 ${fixed(lag.p50)} ms, p95 ${fixed(lag.p95)}, p99 ${fixed(lag.p99)}, max ${fixed(lag.max)}\n` +
      `  slow partners: ${slowTally.delivered} of ${slowTally.written} delivered meanwhile (commit → arrival p50 ${fixed(slowLag.p50)} ms)\n` +
      `  exactly once and in each partner's feed order: ${faults === 0 && lost === 0 ? "yes" : `NO (${lost} lost, ${fastTally.duplicates + slowTally.duplicates} duplicated, ${fastTally.outOfOrder + slowTally.outOfOrder} out of order, ${fastTally.unknown + slowTally.unknown} unknown)`}\n` +
      `  CPU of this process (writers, delivery, endpoints): ${fixed((cpu.user + cpu.system) / 1000 / delivered, 2)} ms per notification delivered`,
  );
  if (faults > 0 || lost > 0) process.exitCode = 1;
}

await onEachDatabase(DRIVERS, run);
