import "server-only";
import { and, count, isNotNull, isNull, type SQL } from "drizzle-orm";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Db } from "@/lib/db";
import { partnerNotifications, webhookEvents } from "@/lib/db/schema";
import { processSingleton, processSlot } from "@/lib/process/singleton";

/**
 * The Prometheus metrics of this process (prom-client), served by `/api/metrics`. Next bundles the
 * start-up code (instrumentation) and the route handlers separately, so the registry is one per
 * process (lib/process/singleton.ts): both must count into the same one. Labels hold templates and codes only, never an
 * id, a token or personal data (lib/ops/route-label.ts bounds the routes).
 */

function createMetrics() {
  const registry = new Registry();
  // The event loop's delay sampled every 100 ms, not prom-client's 10: its timer woke an idle
  // instance 100 times a second, the most of its idle CPU; a stall still shows in the percentiles.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests, each counted once, by method, route template and status code sent (499: the client hung up before any answer).",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route template.",
      labelNames: ["method", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    partnerCalls: new Counter({
      name: "partner_api_requests_total",
      help: "Attempts of calls to the partner API, by endpoint template and outcome (HTTP status, timeout or network).",
      labelNames: ["endpoint", "outcome"] as const,
      registers,
    }),
    partnerDuration: new Histogram({
      name: "partner_api_request_duration_seconds",
      help: "Time of one attempt of a partner API call, by endpoint template.",
      labelNames: ["endpoint"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    webhooksReceived: new Counter({
      name: "webhook_events_received_total",
      help: "Webhook deliveries from the partner API, by outcome: stored, duplicate, refused.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhooksProcessed: new Counter({
      name: "webhook_events_processed_total",
      help: "Webhook events processed, by result (acknowledged, rejected, status_mismatch, superseded, retry).",
      labelNames: ["result"] as const,
      registers,
    }),
    customerDataRetention: new Counter({
      name: "customer_data_retention_sessions_total",
      help: "Sessions the customer data retention sweep took up, by result: erased, in_use (the customer's outcome still open: taken up again later).",
      labelNames: ["result"] as const,
      registers,
    }),
    reconcilerRuns: new Counter({
      name: "reconciler_runs_total",
      help: "Rounds of the reconciler, by outcome: ran, not_leader (another instance holds the lease), failed.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    // Read from the database when scraped: the figures of every instance, not only this one's.
    webhooksPending: new Gauge({
      name: "webhook_events_pending",
      help: "Webhook events stored and not processed yet (all instances).",
      registers,
      async collect() {
        this.set(await countRows(webhookEvents, isNull(webhookEvents.processedAt)));
      },
    }),
    notificationsPending: new Gauge({
      name: "partner_notifications_pending",
      help: "Partner notifications not delivered yet (all instances).",
      registers,
      async collect() {
        this.set(await countRows(partnerNotifications, isNull(partnerNotifications.deliveredAt)));
      },
    }),
    notificationsFailed: new Gauge({
      name: "partner_notifications_failing",
      help: "Partner notifications not delivered whose last attempt failed (all instances).",
      registers,
      async collect() {
        this.set(
          await countRows(partnerNotifications, and(isNull(partnerNotifications.deliveredAt), isNotNull(partnerNotifications.lastError))),
        );
      },
    }),
  };
}

/** Rows of `table` matching `where`, in the database start-up named; 0 before it has (a unit test). */
async function countRows(table: typeof webhookEvents | typeof partnerNotifications, where: SQL | undefined): Promise<number> {
  const source = metricsDb.get();
  if (!source) return 0;
  const [row] = await (await source()).select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

type Metrics = ReturnType<typeof createMetrics>;
const metricsDb = processSlot<() => Promise<Db>>("ops.metrics-db");

/** Where the gauges that count rows read them (set at start-up). */
export function countRowsIn(db: () => Promise<Db>): void {
  metricsDb.set(db);
}

export function metrics(): Metrics {
  return processSingleton("ops.metrics", createMetrics);
}

/** One attempt of a call to the partner API: its HTTP status, or how it failed without one. */
export interface PartnerCallObservation {
  endpoint: string;
  outcome: number | "timeout" | "network";
  durationMs: number;
}

/** The financing client's `observe` hook. */
export function observePartnerCall({ endpoint, outcome, durationMs }: PartnerCallObservation): void {
  const m = metrics();
  m.partnerCalls.inc({ endpoint, outcome: String(outcome) });
  m.partnerDuration.observe({ endpoint }, durationMs / 1000);
}
