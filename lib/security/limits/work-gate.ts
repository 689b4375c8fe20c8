import { createTokenBuckets, type TokenBuckets } from "./token-bucket";

/**
 * A budget for expensive work per key (a partner's CSV export: up to 100 partner API calls each):
 * at most `maxInFlight` at once and `perMinute` started per minute (a token bucket with a burst of
 * `burst`). `enter` answers how long to wait, or a `release` to call when the work ends. Per
 * instance, in memory. Pure: tests give it a clock.
 */
export interface WorkGate {
  enter(key: string): { ok: true; release: () => void } | { ok: false; retryAfterMs: number };
}

export function createWorkGate(options: { perMinute: number; burst: number; maxInFlight: number; now?: () => number }): WorkGate {
  const buckets: TokenBuckets = createTokenBuckets({ capacity: options.burst, perMinute: options.perMinute, now: options.now });
  const running = new Map<string, number>();
  return {
    enter(key) {
      // One under way: a retry once it is likely done (no better guess without knowing its size).
      if ((running.get(key) ?? 0) >= options.maxInFlight) return { ok: false, retryAfterMs: 5_000 };
      const take = buckets.take(key);
      if (!take.ok) return take;
      running.set(key, (running.get(key) ?? 0) + 1);
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          const left = (running.get(key) ?? 1) - 1;
          if (left <= 0) running.delete(key);
          else running.set(key, left);
        },
      };
    },
  };
}
