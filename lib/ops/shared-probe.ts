import { LRUCache } from "lru-cache";

/**
 * A check whose answer stands for `ttlMs`: one call per window, shared. Requests within `ttlMs` of
 * the last answer get it again, and requests that arrive while a call is under way wait for that
 * call. Used where a public request would otherwise be one upstream call (the readiness probe's
 * partner API health call). The call should turn its failures into results: one that throws is
 * not remembered, so the next request calls again. Pure: tests give it a clock.
 */
export function createSharedProbe<T>(ttlMs: number, call: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let last: { result: T; at: number } | undefined;
  let inFlight: Promise<T> | undefined;
  return function probe(): Promise<T> {
    if (last && now() - last.at < ttlMs) return Promise.resolve(last.result);
    inFlight ??= call()
      .then((result) => {
        last = { result, at: now() };
        return result;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}

/**
 * The same per key (a checkout session): a read for a key that was read less than `windowMs` ago
 * is not made (`recent()` answers instead, typically what is already stored), and concurrent reads
 * of one key share the one under way. The window counts from when the last read settled. Keys
 * beyond `maxKeys` forget the least recently used one: a bound on memory.
 */
export interface ReuseWindow {
  run<T>(key: string, read: () => Promise<T>, recent: () => T): Promise<T>;
}

export function createReuseWindow(windowMs: number, options: { maxKeys?: number; now?: () => number } = {}): ReuseWindow {
  const now = options.now ?? Date.now;
  const readAt = new LRUCache<string, number>({ max: options.maxKeys ?? 10_000 });
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, read: () => Promise<T>, recent: () => T): Promise<T> {
      const under = inFlight.get(key) as Promise<T> | undefined;
      if (under) return under;
      const last = readAt.get(key);
      if (last !== undefined && now() - last < windowMs) return Promise.resolve(recent());
      const started = read().finally(() => {
        readAt.set(key, now());
        inFlight.delete(key);
      });
      inFlight.set(key, started);
      return started;
    },
  };
}
