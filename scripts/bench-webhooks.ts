/**
 * `npm run bench:webhooks [-- --events 2000 --duplicates 0.3 --concurrency 32 --drivers pglite,postgres]`
 *
 * Webhook deliveries per second accepted by our receiver over loopback HTTP, with p50 and p99
 * latency, on PGlite and (when BENCH_DATABASE_URL or TEST_DATABASE_URL is set) on PostgreSQL, with
 * duplicates mixed in. As in the route handler, the request path stores the delivery and wakes the
 * worker's pump, which processes off the request path (on the background pool, as in the app)
 * against a partner API double that answers at once. Prints the intake, the time until every event is processed, and the count processed,
 * which must equal the distinct events sent. Figures only: nothing passes or fails on a timing.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { isNotNull } from "drizzle-orm";
import type { Database } from "../lib/db";
import { checkoutSessions, webhookEvents } from "../lib/db/schema";
import type { CheckoutContext } from "../lib/checkout/session/flow";
import { seedDemoPartner } from "../lib/demo/seed";
import { receiveWebhook } from "../lib/checkout/background/webhooks";
import { createWebhookPump } from "../lib/checkout/background/worker";
import { createFinancingClient } from "../lib/financing/client";
import { storedSession } from "../lib/checkout/testing/context";
import { onEachDatabase } from "./bench/in-process-databases";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "2000" },
    duplicates: { type: "string", default: "0.3" },
    concurrency: { type: "string", default: "32" },
    // Which databases to run on (PostgreSQL only when a server URL is set too).
    drivers: { type: "string", default: "pglite,postgres" },
  },
});
const EVENTS = Number(values.events);
const DUPLICATE_SHARE = Number(values.duplicates);
const CONCURRENCY = Number(values.concurrency);
const DRIVERS = new Set(values.drivers.split(","));
const TOKEN = "bench-webhook-token-000000000000";

/** The partner API, answering at once: the status is CONFIRMED, every ack succeeds. */
const apiDouble: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const match = /\/operations\/([^/]+)\/status$/.exec(url.pathname);
  if (match) return Response.json({ operationId: match[1], status: "CONFIRMED", updatedAt: "2026-11-22T10:00:00Z" });
  return Response.json({ acknowledged: true });
};

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run(label: string, database: Database): Promise<void> {
  const db = database.db;
  await seedDemoPartner(db, { secret: "bench_partner_secret_0000", appUrl: "http://127.0.0.1" });
  const client = createFinancingClient({ baseUrl: "http://api.double/v1", apiKey: "fk_test_bench", fetch: apiDouble });
  const ctx: CheckoutContext = { db, appUrl: "http://127.0.0.1", webhookToken: TOKEN, today: () => "2026-11-22", clientFor: () => client };

  // One session per event, each with its operation, as real traffic would have.
  const run = Date.now().toString(36);
  const sessions = Array.from({ length: EVENTS }, (_, i) =>
    storedSession({
      id: `cs_bench${run}${String(i).padStart(8, "0")}`,
      reference: `BENCH-${run}-${i}`,
      operationId: `op_bench_${run}_${i}`,
    }),
  );
  for (let i = 0; i < sessions.length; i += 500) await db.insert(checkoutSessions).values(sessions.slice(i, i + 500));

  // As in the app (lib/startup.ts, the webhook route): processing on the background pool, the
  // deliveries stored through the intake pool.
  const pump = createWebhookPump({ ...ctx, db: database.background });
  const intakeCtx = { ...ctx, db: database.intake };
  const server = await new Promise<Server>((resolve) => {
    const s = serve(
      {
        port: 0,
        hostname: "127.0.0.1",
        fetch: async (request) => {
          const result = await receiveWebhook(intakeCtx, TOKEN, request);
          if (result.status !== 200) return new Response(null, { status: result.status });
          if (result.process) pump.wake();
          return Response.json({ received: true });
        },
      },
      () => resolve(s as Server),
    );
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;

  // Each run has a database of its own, so event ids can start anywhere.
  const base = 1;
  const deliveries = sessions.map((s, i) => ({ operationIdentifier: s.operationId, operationStatus: "CONFIRMED", eventId: base + i }));
  const duplicates = Array.from({ length: Math.round(EVENTS * DUPLICATE_SHARE) }, (_, i) => deliveries[(i * 7919) % EVENTS]!);
  const queue = [...deliveries, ...duplicates].sort((a, b) => ((a.eventId * 2654435761) % 997) - ((b.eventId * 2654435761) % 997));

  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < queue.length) {
        const body = JSON.stringify(queue[next++]);
        const t0 = performance.now();
        const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!response.ok) throw new Error(`delivery answered ${response.status}`);
      }
    }),
  );
  const acceptedSeconds = (performance.now() - started) / 1000;
  // CPU time of this process (receiver, pump and the bench's own HTTP client) during the intake: a
  // figure a busy machine disturbs less than the wall-clock ones.
  const intakeCpu = process.cpuUsage(cpuAtStart);
  const cpuMsPerDelivery = (intakeCpu.user + intakeCpu.system) / 1000 / queue.length;
  await pump.idle();
  const processedSeconds = (performance.now() - started) / 1000;
  server.closeAllConnections();
  server.close();

  const processed = (await db.select({ id: webhookEvents.eventId }).from(webhookEvents).where(isNotNull(webhookEvents.processedAt))).filter(
    (row) => row.id >= base && row.id < base + EVENTS,
  ).length;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label}: ${queue.length} deliveries (${EVENTS} distinct events, ${duplicates.length} duplicates), concurrency ${CONCURRENCY}\n` +
      `  intake: ${(queue.length / acceptedSeconds).toFixed(0)} deliveries/s over ${acceptedSeconds.toFixed(1)} s; latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; ` +
      `${cpuMsPerDelivery.toFixed(2)} ms of this process's CPU per delivery\n` +
      `  processed: ${processed} of ${EVENTS} distinct events (${processed === EVENTS ? "all, once each" : "MISMATCH"}), all done after ${processedSeconds.toFixed(1)} s`,
  );
  if (processed !== EVENTS) process.exitCode = 1;
}

await onEachDatabase(DRIVERS, run);
