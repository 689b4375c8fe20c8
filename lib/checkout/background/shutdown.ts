import "server-only";
import type { Db } from "@/lib/db";
import { heldEvents, type ShutdownStep } from "@/lib/ops/lifecycle";
import { INSTANCE_ID, releaseLease } from "./reconciler";
import { releaseClaims } from "./webhooks";
import type { BackgroundWork } from "./worker";

/**
 * The checkout's part in a graceful stop (registered with the platform's `onShutdown` at start-up):
 * the background worker stops taking work; what did not finish in the grace is handed back, the
 * webhook events this process holds (unlocked, due at once) and the reconciler's lease, so another
 * instance takes them without waiting for the locks to run out.
 */
export function checkoutShutdownStep(db: Db, worker: BackgroundWork): ShutdownStep {
  return {
    stop: () => worker.stop(),
    async handBack() {
      const held = heldEvents();
      const releasedEvents = held.length > 0 ? await releaseClaims({ db }, held) : 0;
      const releasedLease = await releaseLease(db, "reconciler", INSTANCE_ID);
      return { releasedEvents, releasedLease };
    },
  };
}
