import "server-only";
import { processSlot } from "@/lib/process/singleton";

/**
 * This process's lifecycle, shared by the start-up code and the route handlers (Next bundles them
 * apart, hence one per process: lib/process/singleton.ts): whether it is draining (SIGTERM received: readiness goes red, no new
 * background work starts), the background work still running (so shutdown can wait for it), the
 * webhook events this process holds (so shutdown can hand back the ones it could not finish), and
 * the shutdown steps the domains registered (this platform code knows none of them).
 */

export interface HeldEvent {
  eventId: number;
  operationId: string;
}

/** What a domain does when the process stops (registered with `onShutdown`). */
export interface ShutdownStep {
  /** Stops taking new work; called as draining starts. */
  stop?(): Promise<void>;
  /**
   * Hands back what did not finish within the grace (locks, leases) so another instance takes it
   * at once; returns what it released, by name, for the shutdown's report and log line.
   */
  handBack?(): Promise<Record<string, number | boolean>>;
}

interface Lifecycle {
  /** Settles when the start-up (lib/startup.ts) has finished; `started` settles it. */
  startup: { done: Promise<void>; settle: () => void };
  draining: boolean;
  steps: Map<string, ShutdownStep>;
  /** The background worker's "there is work now" (set at start-up; absent in a unit test). */
  wake?: () => void;
  work: Set<Promise<unknown>>;
  held: Map<string, HeldEvent>;
  /** Webhook deliveries on the request path now, and who waits for there to be none. */
  intake: number;
  quiet: (() => void)[];
}

const lifecycleSlot = processSlot<Lifecycle>("ops.lifecycle");

function lifecycle(): Lifecycle {
  let state = lifecycleSlot.get();
  if (state) return state;
  state = {
    startup: deferred(),
    draining: false,
    steps: new Map(),
    work: new Set(),
    held: new Map(),
    intake: 0,
    quiet: [],
  };
  lifecycleSlot.set(state);
  return state;
}

function deferred(): Lifecycle["startup"] {
  let settle = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { done, settle };
}

/** Says the start-up has finished: the database is migrated and the background work running. */
export function started(): void {
  lifecycle().startup.settle();
}

/**
 * Settles once the start-up has finished. The server entry waits for it before it listens, so the
 * first request is served by a started server instead of waiting for the start-up behind it.
 */
export function whenStarted(): Promise<void> {
  return lifecycle().startup.done;
}

/** Registers what a domain does at shutdown, under a name (registering the name again replaces it). */
export function onShutdown(name: string, step: ShutdownStep): void {
  lifecycle().steps.set(name, step);
}

export function shutdownSteps(): ShutdownStep[] {
  return [...lifecycle().steps.values()];
}

export function isDraining(): boolean {
  return lifecycle().draining;
}

export function startDraining(): void {
  lifecycle().draining = true;
}

/** Runs background work and keeps it in view until it settles; refused (undefined) while draining. */
export function trackWork<T>(start: () => Promise<T>): Promise<T> | undefined {
  const state = lifecycle();
  if (state.draining) return undefined;
  const running = start();
  state.work.add(running);
  void running.then(
    () => state.work.delete(running),
    () => state.work.delete(running),
  );
  return running;
}

/** Settles when every tracked piece of work has, or after `ms`; true when all settled. */
export async function workSettled(ms: number): Promise<boolean> {
  const state = lifecycle();
  const deadline = Date.now() + ms;
  while (state.work.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...state.work]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, left);
      }),
    ]);
    clearTimeout(timer);
  }
  return true;
}

/** Tells the background worker that webhook events are due now (from the receiver, after its insert). */
export function wakeWorker(): void {
  lifecycle().wake?.();
}

export function onWake(wake: (() => void) | undefined): void {
  lifecycle().wake = wake;
}

/**
 * Runs one webhook delivery's request path (check, store), counted: while any is, the worker's
 * processing runs at a lower concurrency, so the deliveries do not queue behind it for the event
 * loop and the database (lib/checkout/background/worker.ts).
 */
export async function duringIntake<T>(intake: () => Promise<T>): Promise<T> {
  const state = lifecycle();
  state.intake += 1;
  try {
    return await intake();
  } finally {
    state.intake -= 1;
    if (state.intake === 0) for (const resolve of state.quiet.splice(0)) resolve();
  }
}

/** Whether a webhook delivery is being taken in right now. */
export function intakeBusy(): boolean {
  return lifecycle().intake > 0;
}

/** Resolves when no webhook delivery is being taken in (at once if none is). */
export function intakeQuiet(): Promise<void> {
  const state = lifecycle();
  if (state.intake === 0) return Promise.resolve();
  return new Promise((resolve) => state.quiet.push(resolve));
}

const heldKey = (event: HeldEvent) => `${event.eventId}|${event.operationId}`;

export function holdEvent(event: HeldEvent): void {
  lifecycle().held.set(heldKey(event), event);
}

export function releaseEvent(event: HeldEvent): void {
  lifecycle().held.delete(heldKey(event));
}

export function heldEvents(): HeldEvent[] {
  return [...lifecycle().held.values()];
}

/** For tests: back to a fresh process's state. */
export function resetLifecycle(): void {
  lifecycleSlot.clear();
}
