import "server-only";
import type { CheckoutContext } from "../session/flow";
import { deliverDueNotifications } from "./notifications";
import { reconcile } from "./reconciler";
import { eraseRetainedCustomerData } from "./retention";
import { dueWebhookEvents, processWebhookEvent } from "./webhooks";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { logError, loggerFor } from "@/lib/logger";
import { withLogContext } from "@/lib/logging/context";
import { intakeBusy, intakeQuiet, onWake, trackWork } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";

const log = loggerFor("worker");

export interface BackgroundWork {
  /** Stops the rounds; resolves when the round under way (if any) has ended. */
  stop(): Promise<void>;
}

/** Events processed at once by one instance: enough to overlap partner API latency, few enough for its pool. */
const WEBHOOK_CONCURRENCY = 8;
/**
 * Events processed at once while webhook deliveries are being taken in: processing makes way for
 * the request path (the event loop, the database) but never stops, and is back to full
 * concurrency at the first instant with no delivery in flight.
 */
const WEBHOOK_CONCURRENCY_DURING_INTAKE = 2;
/** Due events read per query. */
const WEBHOOK_BATCH = 100;

export interface WebhookPump {
  /** Due events exist: process them now (a call while a pass runs makes it look again). */
  wake(): void;
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
}

/**
 * The webhook events' processing, off the request path: the receiver stores a delivery and wakes
 * the pump, which takes the due events in batches and processes up to 8 at a time (2 while
 * deliveries are being taken in; the database claim decides which instance takes each), until none
 * is due. Each one is tracked, so a shutdown
 * waits for it, and none starts once the process is draining.
 */
export function createWebhookPump(ctx: CheckoutContext, concurrency = WEBHOOK_CONCURRENCY): WebhookPump {
  let running: Promise<void> | undefined;
  let again = false;

  async function pass(): Promise<void> {
    do {
      again = false;
      for (;;) {
        const due = await dueWebhookEvents(ctx, new Date(), WEBHOOK_BATCH);
        if (due.length === 0) break;
        let next = 0;
        let started = 0;
        await Promise.all(
          Array.from({ length: Math.min(concurrency, due.length) }, async (_, runner) => {
            while (next < due.length) {
              // The runners past the first few wait while deliveries are being taken in.
              while (runner >= WEBHOOK_CONCURRENCY_DURING_INTAKE && intakeBusy()) await intakeQuiet();
              if (next >= due.length) return;
              const key = due[next++]!;
              const work = trackWork(() => withLogContext({ eventId: String(key.eventId) }, () => processWebhookEvent(ctx, key)));
              if (!work) return;
              started += 1;
              await work;
            }
          }),
        );
        // Draining, or every due event was held elsewhere (another instance, a retry later): stop here.
        if (started === 0 || due.length < WEBHOOK_BATCH) break;
      }
    } while (again);
  }

  return {
    wake() {
      if (running) {
        again = true;
        return;
      }
      running = pass()
        .catch((error: unknown) => logError(log, "worker: processing webhook events failed", error))
        .finally(() => {
          running = undefined;
        });
    },
    async idle() {
      while (running) await running;
    },
  };
}

/**
 * The server's background work. Webhook events are processed as soon as the receiver stores them
 * (the pump); every few seconds, a round also takes up events whose processing failed or was cut
 * short by a stopped instance (its lock runs out), sends due partner notifications, reconciles
 * open outcomes (by one instance at a time, the lease holder), and every ten minutes erases the
 * customers' data past its retention period (retention.ts, under a lease too). Every instance runs it; the
 * database decides who does what.
 */
export function startBackgroundWork(ctx: CheckoutContext, intervalMs = 5_000): BackgroundWork {
  const pump = createWebhookPump(ctx);
  onWake(() => pump.wake());
  const outage = outageBackoff(intervalMs);
  let current: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (current || outage.waiting()) return;
    pump.wake();
    current = runRound(ctx)
      .then(outage.succeeded, outage.failed)
      .finally(() => {
        current = undefined;
      });
  }, intervalMs);
  // Background work must not keep a process alive on its own.
  timer.unref?.();
  // Events stored before this start (a restart) are due now, not at the first tick.
  pump.wake();
  return {
    async stop() {
      clearInterval(timer);
      onWake(undefined);
      await Promise.all([current, pump.idle()]);
    },
  };
}

/** The longest wait between rounds while the database is unreachable. */
export const MAX_OUTAGE_BACKOFF_MS = 30_000;

/**
 * The rounds through a database outage: a round that fails because the database is unreachable
 * is logged (with the error's code) and the next ones wait twice as long each time, up to 30 s,
 * instead of failing every few seconds; the first round that succeeds says the database is back
 * and the rounds go on at their pace. Any other failure is logged and the next round comes as usual.
 */
export function outageBackoff(intervalMs: number, now: () => number = Date.now) {
  let failures = 0;
  let since = 0;
  /** Ticks still to skip. */
  let skip = 0;
  return {
    /** Whether this tick is skipped. */
    waiting: (): boolean => {
      if (skip === 0) return false;
      skip -= 1;
      return true;
    },
    succeeded: (): void => {
      if (failures > 0) log.info({ failedRounds: failures, downForMs: now() - since }, "worker: the database is reachable again");
      failures = 0;
      skip = 0;
    },
    failed: (error: unknown): void => {
      if (!isDatabaseUnavailable(error)) {
        logError(log, "worker: a round failed", error);
        return;
      }
      if (failures === 0) since = now();
      failures += 1;
      // 1, 2, 4… intervals until the next round, at most MAX_OUTAGE_BACKOFF_MS.
      const ticks = Math.max(1, Math.min(2 ** (failures - 1), Math.floor(MAX_OUTAGE_BACKOFF_MS / intervalMs)));
      skip = ticks - 1;
      logError(log, "worker: the database is unreachable; the next round waits", error, {
        failedRounds: failures,
        waitMs: ticks * intervalMs,
      });
    },
  };
}

/** How often an instance tries the customer data retention sweep (its lease holder runs it). */
export const RETENTION_EVERY_MS = 10 * 60_000;
let lastRetention = 0;

async function runRound(ctx: CheckoutContext): Promise<void> {
  await deliverDueNotifications(ctx);
  try {
    const checked = await reconcile(ctx);
    metrics().reconcilerRuns.inc({ outcome: checked === null ? "not_leader" : "ran" });
  } catch (error) {
    metrics().reconcilerRuns.inc({ outcome: "failed" });
    throw error;
  }
  if (Date.now() - lastRetention >= RETENTION_EVERY_MS) {
    lastRetention = Date.now();
    await eraseRetainedCustomerData(ctx);
  }
}
