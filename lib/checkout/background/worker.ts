import "server-only";
import type { CheckoutContext } from "../session/flow";
import { createNotificationPump } from "./notifications";
import { wakeable, type Wakeable } from "./wakeable";
import { reconcile } from "./reconciler";
import { eraseRetainedCustomerData } from "./retention";
import { dueWebhookEvents, processWebhookEvent } from "./webhooks";
import { onSignal } from "@/lib/db/signals";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { OUTBOX_CHANNEL } from "../session/outbox";
import { logError, loggerFor } from "@/lib/logger";
import { withLogContext } from "@/lib/logging/context";
import { intakeBusy, intakeQuiet, onWake, trackWork } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";

const log = loggerFor("worker");

export interface BackgroundWork {
  /** Stops the rounds; resolves when the round under way (if any) has ended. */
  stop(): Promise<void>;
  /** Resolves when nothing runs: no round, no webhook pass, no notification sent. */
  idle(): Promise<void>;
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

/** The webhook events' pump (createWebhookPump). */
export type WebhookPump = Wakeable;

/**
 * The webhook events' processing, off the request path: the receiver stores a delivery and wakes
 * the pump, which takes the due events in batches and processes up to 8 at a time (2 while
 * deliveries are being taken in; the database claim decides which instance takes each), until none
 * is due. Each one is tracked, so a shutdown
 * waits for it, and none starts once the process is draining.
 */
export function createWebhookPump(ctx: CheckoutContext, concurrency = WEBHOOK_CONCURRENCY): WebhookPump {
  return wakeable(
    async () => {
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
    },
    log,
    "worker: processing webhook events failed",
  );
}

/**
 * The server's background work. Webhook events are processed as soon as the receiver stores them
 * (the pump), and partner notifications sent as soon as the transaction that wrote them commits, on
 * whichever instance (the outbox's wake-up, lib/db/signals.ts: in-process, and LISTEN/NOTIFY on
 * PostgreSQL). Every few seconds, a round is the safety net of both, taking up what a lost wake-up,
 * a failed attempt's backoff or a stopped instance's lock left due, and it also reconciles open
 * outcomes (by one instance at a time, the lease holder), and every ten minutes erases the
 * customers' data past its retention period (retention.ts, under a lease too). Every instance runs
 * it; the database decides who does what.
 */
export function startBackgroundWork(ctx: CheckoutContext, intervalMs = 5_000): BackgroundWork {
  const pump = createWebhookPump(ctx);
  const notifications = createNotificationPump(ctx, { track: trackWork });
  onWake(() => pump.wake());
  const listening = onSignal(ctx.db, OUTBOX_CHANNEL, () => notifications.wake()).catch((error: unknown) => {
    logError(log, "worker: not listening for new notifications; the rounds send them", error);
    return undefined;
  });
  const outage = outageBackoff(intervalMs);
  let current: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (current || outage.waiting()) return;
    pump.wake();
    notifications.wake();
    current = runRound(ctx)
      .then(outage.succeeded, outage.failed)
      .finally(() => {
        current = undefined;
      });
  }, intervalMs);
  // Background work must not keep a process alive on its own.
  timer.unref?.();
  // Events and notifications stored before this start (a restart) are due now, not at the first tick.
  pump.wake();
  notifications.wake();
  return {
    async stop() {
      clearInterval(timer);
      onWake(undefined);
      const stopListening = await listening;
      await stopListening?.().catch((error: unknown) => logError(log, "worker: could not stop listening for new notifications", error));
      await Promise.all([current, pump.idle(), notifications.idle()]);
    },
    async idle() {
      while (current) await current;
      await Promise.all([pump.idle(), notifications.idle()]);
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
