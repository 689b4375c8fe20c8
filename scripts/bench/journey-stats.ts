import { verifyNotificationByHand } from "../../examples/verify-notification";

/*
 * The journey bench's pure parts (scripts/bench-journey.ts): statistics, CPU time read from /proc,
 * the agency's check of a notification, and the exactly-once tally.
 */

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** The value at percentile `p` (nearest rank) of some numbers; NaN for none. */
export function percentileOf(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}

export function summarize(values: readonly number[]): Summary {
  const mean = values.length === 0 ? Number.NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
  return { n: values.length, p50: percentileOf(values, 50), p95: percentileOf(values, 95), mean };
}

/**
 * User + system CPU time of one process from the text of /proc/<pid>/stat, in ms. The command's
 * name (field 2, in parentheses) may hold spaces and parentheses: the fields are counted from the
 * last ")", after which utime and stime are the 12th and 13th.
 */
export function procStatCpuMs(stat: string): number {
  const close = stat.lastIndexOf(")");
  if (close < 0) throw new Error("not a /proc/<pid>/stat line");
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error("no utime/stime in /proc/<pid>/stat");
  return (utime + stime) * TICK_MS;
}

/**
 * The CPU time of a changing set of processes (the PostgreSQL backends of one database), kept
 * monotonic: a process first seen counts from its start, one that has gone keeps its last reading.
 */
export class ProcessSetCpu {
  private readonly last = new Map<number, number>();

  /** Records the readings of the processes present (pid → CPU ms); returns the total so far. */
  update(readings: ReadonlyMap<number, number>): number {
    for (const [pid, ms] of readings) this.last.set(pid, Math.max(ms, this.last.get(pid) ?? 0));
    return this.total();
  }

  total(): number {
    let sum = 0;
    for (const ms of this.last.values()) sum += ms;
    return sum;
  }
}

/** One notification as the agency's receiver took it. */
export interface Received {
  webhookId: string;
  type: string;
  sessionId: string | undefined;
}

/**
 * What the agency's endpoint does with a delivery: the Standard Webhooks check of
 * examples/verify-notification.ts (the signature over the raw body, the timestamp's freshness).
 * Undefined: refused (the receiver answers 401).
 */
export function acceptNotification(signingSecret: string, rawBody: string, headers: Headers, now = new Date()): Received | undefined {
  try {
    const payload = verifyNotificationByHand(signingSecret, rawBody, headers, now) as { type: string; data?: { id?: string } };
    return { webhookId: headers.get("webhook-id")!, type: payload.type, sessionId: payload.data?.id };
  } catch {
    return undefined;
  }
}

export interface ExactlyOnce {
  /** Sessions whose every expected notification came once, under one id. */
  once: number;
  /** Sessions with an expected notification that never came. */
  missing: number;
  /** Sessions with one delivered twice (the same id again) or a type under two ids. */
  duplicated: number;
}

/** Of `sessions`, how many received each of `types` exactly once. */
export function exactlyOnce(received: readonly Received[], sessions: readonly string[], types: readonly string[]): ExactlyOnce {
  const bySession = new Map<string, Received[]>();
  for (const r of received) if (r.sessionId !== undefined) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
  const tally: ExactlyOnce = { once: 0, missing: 0, duplicated: 0 };
  for (const session of sessions) {
    const got = bySession.get(session) ?? [];
    const ids = got.map((r) => r.webhookId);
    const perType = types.map((type) => got.filter((r) => r.type === type).length);
    if (new Set(ids).size !== ids.length || perType.some((count) => count > 1)) tally.duplicated++;
    else if (perType.some((count) => count === 0)) tally.missing++;
    else tally.once++;
  }
  return tally;
}
