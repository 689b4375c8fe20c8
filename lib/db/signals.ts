import "server-only";
import { randomUUID } from "node:crypto";
import type postgres from "postgres";
import { logError, loggerFor } from "@/lib/logger";
import { processSingleton } from "@/lib/process/singleton";
import type { Db } from "./connection";

const log = loggerFor("db-signals");

/**
 * Wake-ups through the database: a writer says "there is new work on `channel`" after its commit
 * (signal), and whoever does that work, in this process or in another instance, is woken at once
 * (onSignal), instead of finding it at its next timed round. A signal carries nothing but its
 * channel: the work itself is in the tables, and the woken side reads it there.
 *
 * - In this process the listeners are called at once, on both drivers (PGlite is one process).
 * - On PostgreSQL the signal also goes to every other instance as a `NOTIFY` on the channel, sent
 *   after the writer's commit, never inside it (PostgreSQL serialises the commits of notifying
 *   transactions under one lock for the whole database). Signals that come while one is on its way
 *   are folded into one more, sent after it: however many commits, at most one `NOTIFY` in flight
 *   per channel and instance. Each instance listens on one connection of its own (postgres.js's
 *   `listen`, which listens again after the connection is lost, and then calls the listener once, for
 *   what it may have missed), and ignores its own `NOTIFY`s: its listeners were called already.
 *
 * A signal is a hint, never the only way to the work: one lost (a crash between the commit and the
 * NOTIFY, a listening connection that is down) leaves the work to the next timed round.
 */

type Listener = () => void;

interface Signals {
  /** This Database's name in its NOTIFYs' payload, to know its own. */
  readonly instance: string;
  /** PostgreSQL only: the client that sends and listens. */
  readonly client: postgres.Sql | undefined;
  readonly listeners: Map<string, Set<Listener>>;
  /** Channels with a NOTIFY on its way: `again` when another signal came meanwhile. */
  readonly sending: Map<string, "sending" | "again">;
}

// One per process (lib/process/singleton.ts): the route bundles' copy of this module signals what
// the start-up code's copy (the worker) listens for, on the same database handles.
const signalsOf = processSingleton("db.signals", () => new WeakMap<Db, Signals>());

function newSignals(client: postgres.Sql | undefined): Signals {
  return { instance: randomUUID(), client, listeners: new Map(), sending: new Map() };
}

/**
 * Called as a database is opened (connection.ts): its handles (the requests', the background work's,
 * the intake's) share one set of signals, carried to the other instances by `client` on PostgreSQL.
 */
export function shareSignals(handles: readonly Db[], client?: postgres.Sql): void {
  const signals = newSignals(client);
  for (const handle of handles) signalsOf.set(handle, signals);
}

/** A handle opened elsewhere (a test's) gets signals of its own, in this process only. */
function signalsFor(db: Db): Signals {
  let signals = signalsOf.get(db);
  if (!signals) {
    signals = newSignals(undefined);
    signalsOf.set(db, signals);
  }
  return signals;
}

/** After a commit that left work on `channel`: wakes its listeners here, and on PostgreSQL everywhere. */
export function signal(db: Db, channel: string): void {
  const signals = signalsFor(db);
  for (const listener of signals.listeners.get(channel) ?? []) listener();
  if (signals.client) sendNotify(signals, signals.client, channel);
}

function sendNotify(signals: Signals, client: postgres.Sql, channel: string): void {
  if (signals.sending.has(channel)) {
    signals.sending.set(channel, "again");
    return;
  }
  signals.sending.set(channel, "sending");
  void client
    .notify(channel, signals.instance)
    .catch((error: unknown) => logError(log, "a wake-up could not be sent; the next round takes the work", error, { channel }))
    .finally(() => {
      const again = signals.sending.get(channel) === "again";
      signals.sending.delete(channel);
      if (again) sendNotify(signals, client, channel);
    });
}

/**
 * Calls `listener` on every signal on `channel`: this process's at once, on PostgreSQL every other
 * instance's too (once listening, and once more each time listening starts again). Resolves when
 * listening, to the function that stops it.
 */
export async function onSignal(db: Db, channel: string, listener: Listener): Promise<() => Promise<void>> {
  const signals = signalsFor(db);
  const here = signals.listeners.get(channel) ?? new Set<Listener>();
  signals.listeners.set(channel, here);
  here.add(listener);
  const stopHere = () => {
    here.delete(listener);
  };
  if (!signals.client) return async () => stopHere();
  try {
    const listening = await signals.client.listen(
      channel,
      (payload) => {
        if (payload !== signals.instance) listener();
      },
      listener,
    );
    return async () => {
      stopHere();
      await listening.unlisten();
    };
  } catch (error) {
    stopHere();
    throw error;
  }
}
