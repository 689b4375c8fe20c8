import "server-only";
import type { CheckoutContext } from "./flow";
import { deliverDueNotifications } from "./notifications";
import { reconcile } from "./reconciler";
import { dueWebhookEvents, processWebhookEvent } from "./webhooks";
import { logError, loggerFor } from "@/lib/logger";
import { withLogContext } from "@/lib/logging/context";
import { metrics } from "@/lib/ops/metrics";

const log = loggerFor("worker");

export interface BackgroundWork {
  /** Stops the rounds; resolves when the round under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * The server's background work, every few seconds: webhook events whose processing failed or was
 * cut short by a stopped instance (its lock runs out) are taken up again; due partner
 * notifications are sent; open outcomes are reconciled (by one instance at a time, the lease
 * holder). Every instance runs it; the database decides who does what.
 */
export function startBackgroundWork(ctx: CheckoutContext, intervalMs = 5_000): BackgroundWork {
  let current: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (current) return;
    current = runOnce(ctx)
      .catch((error: unknown) => logError(log, "worker: a round failed", error))
      .finally(() => {
        current = undefined;
      });
  }, intervalMs);
  // Background work must not keep a process alive on its own.
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}

export async function runOnce(ctx: CheckoutContext): Promise<void> {
  for (const key of await dueWebhookEvents(ctx)) {
    await withLogContext({ eventId: String(key.eventId) }, () => processWebhookEvent(ctx, key));
  }
  await deliverDueNotifications(ctx);
  try {
    const checked = await reconcile(ctx);
    metrics().reconcilerRuns.inc({ outcome: checked === null ? "not_leader" : "ran" });
  } catch (error) {
    metrics().reconcilerRuns.inc({ outcome: "failed" });
    throw error;
  }
}
