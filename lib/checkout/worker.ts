import "server-only";
import type { CheckoutContext } from "./flow";
import { dueWebhookEvents, processWebhookEvent } from "./webhooks";

/**
 * The server's background work: events whose processing failed, or was cut short by a stopped
 * instance (its lock runs out), are taken up again. Every instance runs it; the database decides
 * which one processes each event.
 */
export function startBackgroundWork(ctx: CheckoutContext, intervalMs = 5_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void runOnce(ctx)
      .catch((error: unknown) => console.error("worker: a round failed", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // Background work must not keep a process alive on its own.
  timer.unref?.();
  return () => clearInterval(timer);
}

export async function runOnce(ctx: CheckoutContext): Promise<void> {
  for (const eventId of await dueWebhookEvents(ctx)) await processWebhookEvent(ctx, eventId);
}
