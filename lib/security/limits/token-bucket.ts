import { LRUCache } from "lru-cache";

/**
 * Token buckets per key, in memory (per instance): each key holds up to `capacity` tokens and gets
 * `perMinute` back per minute, continuously. Used where a public request would spend someone's
 * quota (the badge's upstream calls). Keys beyond `maxKeys` forget the least recently used one,
 * which then starts full again: a bound on memory, not a way around the budget of a key in use.
 */

export interface TokenBucketOptions {
  capacity: number;
  perMinute: number;
  maxKeys?: number;
  now?: () => number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

export interface TokenBuckets {
  /** Whether one token is there now (nothing taken). */
  check(key: string): Take;
  /** Takes one token, or says when one will be there. */
  take(key: string): Take;
}

export function createTokenBuckets(options: TokenBucketOptions): TokenBuckets {
  const now = options.now ?? Date.now;
  const perMs = options.perMinute / 60_000;
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: options.maxKeys ?? 10_000 });

  function current(key: string): { tokens: number; at: number } {
    const t = now();
    const bucket = buckets.get(key);
    const tokens = bucket ? Math.min(options.capacity, bucket.tokens + (t - bucket.at) * perMs) : options.capacity;
    return { tokens, at: t };
  }

  function check(key: string): Take {
    const { tokens } = current(key);
    if (tokens >= 1) return { ok: true };
    return { ok: false, retryAfterMs: perMs > 0 ? Math.ceil((1 - tokens) / perMs) : Number.POSITIVE_INFINITY };
  }

  return {
    check,
    take(key) {
      const result = check(key);
      if (!result.ok) return result;
      const { tokens, at } = current(key);
      buckets.set(key, { tokens: tokens - 1, at });
      return result;
    },
  };
}

/**
 * One token from each of several buckets, or none at all (a refusal by one bucket spends nothing in
 * the others). The wait is the longest of the refusals.
 */
export function takeAll(entries: readonly (readonly [TokenBuckets, string])[]): Take {
  const refusals = entries.map(([buckets, key]) => buckets.check(key)).filter((result) => !result.ok);
  if (refusals.length > 0) return { ok: false, retryAfterMs: Math.max(...refusals.map((r) => (r.ok ? 0 : r.retryAfterMs))) };
  for (const [buckets, key] of entries) buckets.take(key);
  return { ok: true };
}
