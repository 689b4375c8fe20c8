import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";

/**
 * Token buckets in the database (`token_buckets`), so that every instance spends the same budget
 * (lib/security/limits/token-bucket.ts is per instance: right for a cache, not for a limit that must hold
 * across instances). Each bucket holds up to `capacity` tokens and gets `perHour` back per hour,
 * continuously; taking one is a single INSERT … ON CONFLICT DO UPDATE … WHERE, so concurrent takers
 * are serialised by the row lock and never overdraw it.
 */

export interface BucketRule {
  capacity: number;
  perHour: number;
}

/**
 * The longest any rule may take to refill from empty (a day). A bucket untouched for longer is full
 * again, which is what no row at all stands for: such rows are deleted (purgeFullTokenBuckets). A
 * rule slower than this is refused at its first use, so that a purge never gives a budget back early.
 */
export const BUCKET_FULL_AFTER_MS = 24 * 60 * 60_000;

function checkRefill(rule: BucketRule): void {
  if (rule.capacity <= 0) return;
  if (!(rule.perHour > 0) || (rule.capacity / rule.perHour) * 3_600_000 > BUCKET_FULL_AFTER_MS)
    throw new Error(`A shared token bucket must refill within ${BUCKET_FULL_AFTER_MS / 3_600_000} hours`);
}

/**
 * Deletes the buckets nobody took from for BUCKET_FULL_AFTER_MS: they are full again, as a missing
 * row is. Answers how many. Run by the background round, so the table holds only recent keys (a
 * client address, a partner, a link) however many came and went.
 */
export async function purgeFullTokenBuckets(db: Pick<Db, "execute">, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - BUCKET_FULL_AFTER_MS);
  const result = await db.execute(sql`delete from token_buckets where updated_at < ${before.toISOString()}::timestamptz returning key`);
  return rowsOf(result).length;
}

/**
 * Takes one token from each bucket, all or none (one transaction): false when any of them is empty,
 * and then nothing is taken from the others. Keys in a fixed order across callers (no deadlock).
 */
export async function takeTokens(db: Db, buckets: readonly { key: string; rule: BucketRule }[], now = new Date()): Promise<boolean> {
  for (const { rule } of buckets) checkRefill(rule);
  try {
    await db.transaction(async (tx) => {
      for (const { key, rule } of buckets) {
        if (!(await takeOne(tx, key, rule, now))) throw new BucketEmpty();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof BucketEmpty) return false;
    throw error;
  }
}

class BucketEmpty extends Error {}

async function takeOne(db: Pick<Db, "execute">, key: string, rule: BucketRule, now: Date): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const perSecond = rule.perHour / 3600;
  // What the bucket holds now: its tokens then, plus the refill since, at most full.
  const level = sql`least(${rule.capacity}::double precision, b.tokens + greatest(extract(epoch from (${at} - b.updated_at)), 0) * ${perSecond}::double precision)`;
  const result = await db.execute(sql`
    insert into token_buckets as b (key, tokens, updated_at)
    values (${key}, ${rule.capacity - 1}, ${at})
    on conflict (key) do update set tokens = ${level} - 1, updated_at = ${at}
    where ${level} >= 1
    returning tokens
  `);
  return rowsOf(result).length > 0;
}

// postgres.js returns the rows as an array, PGlite as `{ rows }`.
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result as unknown[];
  return (result as { rows?: unknown[] }).rows ?? [];
}

/** A family of shared buckets (one per key under `prefix`), all under one rule. */
export interface SharedBuckets {
  prefix: string;
  rule: BucketRule;
}

/** Shared buckets holding a minute's worth of `perMinute` (the in-memory buckets' usual shape). */
export function sharedBuckets(prefix: string, perMinute: number): SharedBuckets {
  return { prefix, rule: { capacity: perMinute, perHour: perMinute * 60 } };
}

/** A refusal names the spends whose bucket was empty (by index in the spends given). */
export type SharedTake = { ok: true } | { ok: false; retryAfterMs: number; empty: number[] };

/** One bucket of a spend: its token is taken, or (`take: false`) only required to be there. */
export interface Spend {
  buckets: SharedBuckets;
  key: string;
  take?: boolean;
}

/**
 * Requires a token in every bucket and takes one from those to take, all or none, in ONE statement
 * (one round trip): refused when any of them is empty, with the wait until the emptiest has a token
 * again, computed from the buckets' state. Concurrent spenders never overdraw a bucket (each take
 * is re-checked under the row's lock); a race lost on one bucket refuses the spend, the others'
 * tokens then spent (the limit errs on the strict side).
 */
export async function spendTokens(db: Pick<Db, "execute">, spends: readonly Spend[], now = new Date()): Promise<SharedTake> {
  if (spends.length === 0) return { ok: true };
  for (const spend of spends) checkRefill(spend.buckets.rule);
  const at = sql`${now.toISOString()}::timestamptz`;
  const entries = spends
    .map((spend, index) => ({
      index,
      key: `${spend.buckets.prefix}:${spend.key}`,
      capacity: spend.buckets.rule.capacity,
      perSecond: spend.buckets.rule.perHour / 3600,
      take: spend.take !== false,
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const wanted = sql.join(
    entries.map((e) => sql`(${e.key}::text, ${e.capacity}::double precision, ${e.perSecond}::double precision, ${e.take}::boolean)`),
    sql`, `,
  );
  const rateOf = sql.join(
    [sql`case b.key`, ...entries.map((e) => sql`when ${e.key} then ${e.perSecond}::double precision`), sql`end`],
    sql` `,
  );
  const lockedLevel = sql`least(excluded.tokens + 1, b.tokens + greatest(extract(epoch from (${at} - b.updated_at)), 0) * ${rateOf})`;
  const result = await db.execute(sql`
    with wanted (key, capacity, per_second, take) as (values ${wanted}),
    levels as (
      select w.key, w.per_second, w.take, w.capacity,
        coalesce(least(w.capacity, b.tokens + greatest(extract(epoch from (${at} - b.updated_at)), 0) * w.per_second), w.capacity) as level
      from wanted w left join token_buckets b on b.key = w.key
    ),
    allowed as (select bool_and(level >= 1) as ok from levels),
    taken as (
      insert into token_buckets as b (key, tokens, updated_at)
      select key, capacity - 1, ${at} from levels where take and (select ok from allowed) order by key
      on conflict (key) do update set tokens = ${lockedLevel} - 1, updated_at = ${at}
      where ${lockedLevel} >= 1
      returning b.key
    )
    select l.key, l.level::double precision as level, l.per_second::double precision as per_second,
      (select count(*) from taken)::int as taken
    from levels l
  `);
  const rows = rowsOf(result) as { key: string; level: number | string; per_second: number | string; taken: number | string }[];
  const toTake = entries.filter((e) => e.take).length;
  const levels = rows.map((row) => ({ key: row.key, level: Number(row.level), perSecond: Number(row.per_second) }));
  const empty = levels.filter((l) => l.level < 1);
  if (empty.length === 0 && Number(rows[0]?.taken ?? 0) === toTake) return { ok: true };
  const waits = empty.map((l) => (l.perSecond > 0 ? Math.ceil(((1 - l.level) / l.perSecond) * 1000) : Number.POSITIVE_INFINITY));
  const emptyKeys = new Set(empty.map((l) => l.key));
  return {
    ok: false,
    retryAfterMs: Math.max(1000, ...waits),
    empty: entries.filter((e) => emptyKeys.has(e.key)).map((e) => e.index),
  };
}
