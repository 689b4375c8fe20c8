import "server-only";
import type { CheckoutContext } from "./flow";
import { deliverDueNotifications } from "./notifications";
import { reconcile } from "./reconciler";
import { dueWebhookEvents, processWebhookEvent } from "./webhooks";
import { logError, loggerFor } from "@/lib/logger";
import { withLogContext } from "@/lib/logging/context";

const log = loggerFor("worker");

/**
 * The server's background work, every few seconds: webhook events whose processing failed or was
 * cut short by a stopped instance (its lock runs out) are taken up again; due partner
 * notifications are sent; open outcomes are reconciled (by one instance at a time, the lease
 * holder). Every instance runs it; the database decides who does what.
 */
export function startBackgroundWork(ctx: CheckoutContext, intervalMs = 5_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void runOnce(ctx)
      .catch((error: unknown) => logError(log, "worker: a round failed", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // Background work must not keep a process alive on its own.
  timer.unref?.();
  return () => clearInterval(timer);
}

export async function runOnce(ctx: CheckoutContext): Promise<void> {
  for (const key of await dueWebhookEvents(ctx)) {
    await withLogContext({ eventId: String(key.eventId) }, () => processWebhookEvent(ctx, key));
  }
  await deliverDueNotifications(ctx);
  await reconcile(ctx);
}
