import "server-only";
import { logError, loggerFor } from "@/lib/logger";
import { closeHttpServers } from "./http-server";
import { shutdownSteps, startDraining, workSettled, type ShutdownStep } from "./lifecycle";

const log = loggerFor("shutdown");

/** The least time the requests under way get once the background work is done with. */
const MIN_REQUEST_GRACE_MS = 5_000;

export interface ShutdownDeps {
  /** What the domains do at shutdown: those registered with `onShutdown` unless given (a test). */
  steps?: ShutdownStep[];
  closeDatabase(): Promise<void>;
  /**
   * How long the instance goes on serving once draining, before anything closes: the load balancer
   * sees readiness fail and takes it out while its requests are still answered (0: no delay).
   */
  drainDelayMs?: number;
  /**
   * How long the work under way may take to finish, counted after the drain delay, before what is
   * left is handed back.
   */
  graceMs: number;
  /** Stops the HTTP servers (after the work, so in-process calls it makes are still served). */
  closeServers?(ms: number): Promise<void>;
  /** Waits out the drain delay: a timer unless given (a test that ends the delay itself). */
  sleep?(ms: number): Promise<void>;
}

/** Whether the work under way finished, and what each step handed back (the checkout's `releasedEvents`, `releasedLease`). */
export type ShutdownReport = { finished: boolean } & Record<string, number | boolean>;

/**
 * A graceful stop: nothing new is taken (readiness goes red, the domains' steps stop their work: the
 * checkout's worker stops, deliveries are stored but left for another instance), requests go on being served for `drainDelayMs` (a load
 * balancer probing readiness needs a few probes to take the instance out, and would meet refused
 * connections if the listener closed first), then the work under way gets `graceMs` to finish,
 * what did not finish is handed back (the events' locks and the reconciler's lease, so another
 * instance takes them at once), then the servers stop and the database is closed. Nothing is lost
 * either way: an event not acknowledged is redelivered by the API and taken up by any instance.
 */
export async function shutdown(deps: ShutdownDeps): Promise<ShutdownReport> {
  startDraining();
  const drainDelayMs = deps.drainDelayMs ?? 0;
  log.info({ drainDelayMs, graceMs: deps.graceMs }, "shutdown: draining");
  const steps = deps.steps ?? shutdownSteps();
  // Stopped now, so no new round starts during the delay; the one under way has the delay and the grace.
  const workStopped = Promise.all(
    steps.map((step) => step.stop?.().catch((error: unknown) => logError(log, "shutdown: stopping the background work failed", error))),
  );
  if (drainDelayMs > 0) {
    await (deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))))(drainDelayMs);
    log.info("shutdown: drain delay over");
  }
  const deadline = Date.now() + deps.graceMs;
  let finished = false;
  let handedBack: Record<string, number | boolean> = {};
  try {
    await Promise.race([workStopped, new Promise((resolve) => setTimeout(resolve, deps.graceMs).unref())]);
    finished = await workSettled(Math.max(0, deadline - Date.now()));
    for (const step of steps) if (step.handBack) handedBack = { ...handedBack, ...(await step.handBack()) };
  } catch (error) {
    logError(log, "shutdown: handing back work failed (its locks run out instead)", error);
  }
  log.info({ finished, ...handedBack }, "shutdown: work finished or handed back");
  // The requests under way (a customer's page waiting on the partner API, a plan being chosen) get
  // what is left of the grace, at least 5 s: they were cut after 5 s whatever SHUTDOWN_GRACE_MS said.
  await (deps.closeServers ?? closeHttpServers)(Math.max(MIN_REQUEST_GRACE_MS, deadline - Date.now()));
  try {
    await deps.closeDatabase();
  } catch (error) {
    logError(log, "shutdown: closing the database failed", error);
  }
  log.info("shutdown: complete");
  return { ...handedBack, finished };
}

/**
 * Takes SIGTERM and SIGINT over from `next start` (whose own handler would exit as soon as its
 * server closed, cutting our work short): the first signal starts `shutdown`, the process exits 0
 * when it is done; a second signal exits at once. The drain delay is SIGTERM's only: SIGINT is a
 * person's Ctrl-C, with no load balancer to wait for.
 */
export function installShutdown(deps: ShutdownDeps): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) {
        log.warn({ signal }, "shutdown: second signal, exiting now");
        process.exit(1);
      }
      stopping = true;
      log.info({ signal }, "shutdown: signal received");
      void shutdown({ ...deps, drainDelayMs: drainDelayFor(signal, deps.drainDelayMs) }).finally(() => process.exit(0));
    });
  }
}

/** The drain delay a signal gets: SIGTERM (an orchestrator's, behind a balancer) the configured one, SIGINT none. */
export function drainDelayFor(signal: NodeJS.Signals, configuredMs = 0): number {
  return signal === "SIGTERM" ? configuredMs : 0;
}
